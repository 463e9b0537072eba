import type { Child } from 'hono/jsx';

/** The pieces the dashboard's pages are made of: a form field, a table, a one-button form. */

interface TextFieldProps {
  id: string;
  name: string;
  label: string;
  type?: 'text' | 'email';
  autocomplete?: string;
  maxlength: number;
  value?: string | undefined;
  placeholder?: string;
  hint?: string;
  /** What is wrong with the value, shown beside the field and tied to it for screen readers. */
  error?: string | undefined;
}

export function TextField({ id, name, label, type = 'text', autocomplete, maxlength, value, placeholder, hint, error }: TextFieldProps) {
  const described = error ? `${id}-error` : hint ? `${id}-hint` : undefined;
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <input
        id={id}
        name={name}
        type={type}
        autocomplete={autocomplete}
        maxlength={maxlength}
        required
        placeholder={placeholder}
        value={value ?? ''}
        aria-invalid={error ? 'true' : undefined}
        aria-describedby={described}
      />
      {hint && (
        <p class="hint" id={`${id}-hint`}>
          {hint}
        </p>
      )}
      {error && (
        <p class="field-error" id={`${id}-error`}>
          {error}
        </p>
      )}
    </div>
  );
}

/**
 * A table that scrolls sideways inside itself when too wide; with `stack`, on a phone each row becomes a
 * card whose cells show their `data-label` (public/assets/dashboard.css).
 */
export function Table({ name, columns, stack = false, children }: { name: string; columns: Child[]; stack?: boolean; children: Child }) {
  return (
    <div class="table-scroll">
      <table class={stack ? `${name} stack` : name}>
        <thead>
          <tr>
            {columns.map((column) => (
              <th scope="col">{column}</th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}

/** A POST that is one button; with `confirm`, dashboard.js asks first. */
export function PostButton({ action, label, kind, confirm }: { action: string; label: string; kind: 'primary' | 'secondary' | 'danger'; confirm?: string }) {
  return (
    <form method="post" action={action}>
      <button class={kind === 'primary' ? 'button' : `button ${kind}`} type="submit" data-confirm={confirm}>
        {label}
      </button>
    </form>
  );
}
