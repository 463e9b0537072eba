import { ApiError } from '../errors/api-error';

/** A request body as plain fields: JSON members or multipart parts, the image's as its bytes. */
export type Fields = Record<string, unknown>;

/** The fields of a body as its parser finds them; a field given twice is refused. */
export class FieldsBuilder {
  readonly #fields = new Map<string, unknown>();

  /** Refuses `name` when the body already gave it, before its value is read. */
  expectNew(name: string): void {
    if (this.#fields.has(name)) throw new ApiError('bad_request', `${name}: given more than once.`);
  }

  set(name: string, value: unknown): void {
    this.expectNew(name);
    this.#fields.set(name, value);
  }

  /** As an object (own data properties, so a field named __proto__ is only a field). */
  fields(): Fields {
    return Object.fromEntries(this.#fields);
  }
}
