import type { Bindings } from '../env';

/** What the deployment lets in besides JPEG, PNG and WebP. */
export interface InputSettings {
  /** HEIC input: off when the deployment sets HEIC_INPUT=off (decisions.md, "Inputs phones and web sites produce"). */
  heic: boolean;
}

/** The one reading of HEIC_INPUT: unset or `on` lets HEIC in; `off`, or any other value, keeps it out. */
export function inputSettings(env: Pick<Bindings, 'HEIC_INPUT'>): InputSettings {
  return { heic: env.HEIC_INPUT === undefined || env.HEIC_INPUT === 'on' };
}
