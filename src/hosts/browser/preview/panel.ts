// The params panel: one native form control per param, generated from the params JSON Schema
// (bounded number -> range, other number -> number field, colour -> colour picker + hex text,
// bool -> checkbox). Every edit goes through `onChange`, which validates like the server.

export interface ParamProperty {
  type?: string;
  minimum?: number;
  maximum?: number;
  default?: unknown;
  description?: string;
  'x-param-type'?: 'number' | 'color' | 'bool';
}

export interface PanelOptions {
  schema: Record<string, unknown>;
  /** Current values as canonical strings (numbers, #rrggbbaa, true/false). */
  values: Record<string, string>;
  /** Apply one value; returns an error sentence when the value is refused. */
  onChange(name: string, value: string): string | undefined;
}

export interface Panel {
  /** Show these values (after a reset or a URL change) and clear errors. */
  setValues(values: Record<string, string>): void;
}

/** A step that puts the default and both bounds on the slider's grid (a range input snaps to min + k*step). */
export function rangeStep(min: number, max: number, def: number): number {
  const span = max - min;
  let step = span > 0 ? 10 ** Math.floor(Math.log10(span / 100)) : 1;
  const onGrid = (x: number) => Math.abs(Math.round(x / step) * step - x) <= step * 1e-6;
  for (let i = 0; i < 8 && !(onGrid(def - min) && onGrid(span)); i++) step /= 10;
  return step;
}

/** #rrggbbaa -> #rrggbb when opaque (how a person writes it, and what a URL should carry). */
export function shortColor(hex: string): string {
  return /^#[0-9a-f]{6}ff$/i.test(hex) ? hex.slice(0, 7) : hex;
}

function el<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Record<string, string> = {}, text?: string): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
}

interface Control {
  show(value: string): void;
  error: HTMLElement;
  inputs: HTMLInputElement[];
}

export function buildPanel(form: HTMLFormElement, o: PanelOptions): Panel {
  const props = ((o.schema.properties ?? {}) as Record<string, ParamProperty>);
  const controls = new Map<string, Control>();
  form.replaceChildren();
  form.addEventListener('submit', (e) => e.preventDefault()); // Enter in a field must not reload the page
  let n = 0;
  for (const [name, p] of Object.entries(props)) {
    const id = `param-${n++}`;
    const kind = p['x-param-type'] ?? (p.type === 'boolean' ? 'bool' : p.type === 'number' ? 'number' : 'color');
    const box = el('div', { class: `param param-${kind}`, 'data-param': name });
    const label = el('label', { for: id }, name);
    const describedBy: string[] = [];
    const help = p.description ? el('p', { class: 'help', id: `${id}-help` }, p.description) : undefined;
    if (help) describedBy.push(help.id);
    const error = el('p', { class: 'error', id: `${id}-error`, role: 'alert' });
    error.hidden = true;
    describedBy.push(error.id);

    const report = (input: HTMLInputElement, message: string | undefined) => {
      error.textContent = message ?? '';
      error.hidden = !message;
      for (const i of control.inputs) i.removeAttribute('aria-invalid');
      if (message) input.setAttribute('aria-invalid', 'true');
    };
    const apply = (input: HTMLInputElement, value: string) => {
      const message = o.onChange(name, value);
      report(input, message);
      return !message;
    };

    let control: Control;
    const row = el('div', { class: 'row' });
    if (kind === 'bool') {
      const input = el('input', { type: 'checkbox', id, name, 'aria-describedby': describedBy.join(' ') });
      input.addEventListener('change', () => apply(input, String(input.checked)));
      control = { show: (v) => (input.checked = v === 'true'), error, inputs: [input] };
      row.append(input, label);
      box.append(row);
    } else if (kind === 'number' && typeof p.minimum === 'number' && typeof p.maximum === 'number') {
      const def = typeof p.default === 'number' ? p.default : p.minimum;
      const input = el('input', {
        type: 'range', id, name, min: String(p.minimum), max: String(p.maximum),
        step: String(rangeStep(p.minimum, p.maximum, def)), 'aria-describedby': describedBy.join(' '),
      });
      const out = el('output', { for: id, id: `${id}-value` });
      input.addEventListener('input', () => {
        out.textContent = input.value;
        apply(input, input.value);
      });
      control = {
        show: (v) => {
          input.value = v;
          out.textContent = v;
        },
        error,
        inputs: [input],
      };
      row.append(input, out);
      box.append(label, row);
    } else if (kind === 'number') {
      const input = el('input', { type: 'number', id, name, step: 'any', 'aria-describedby': describedBy.join(' ') });
      if (typeof p.minimum === 'number') input.min = String(p.minimum);
      if (typeof p.maximum === 'number') input.max = String(p.maximum);
      input.addEventListener('change', () => apply(input, input.value));
      control = { show: (v) => (input.value = v), error, inputs: [input] };
      row.append(input);
      box.append(label, row);
    } else {
      // <input type=color> knows only #rrggbb: the hex field beside it keeps (and edits) the alpha.
      const picker = el('input', { type: 'color', id, name, 'aria-describedby': describedBy.join(' ') });
      const hex = el('input', {
        type: 'text', id: `${id}-hex`, class: 'hex', spellcheck: 'false', autocomplete: 'off',
        'aria-label': `${name} as hex, #rrggbb or #rrggbbaa`, 'aria-describedby': describedBy.join(' '),
      });
      picker.addEventListener('input', () => {
        const alpha = /^#[0-9a-f]{8}$/i.test(hex.value) ? hex.value.slice(7) : '';
        const v = shortColor(picker.value + alpha);
        hex.value = v;
        apply(picker, v);
      });
      hex.addEventListener('change', () => {
        const v = hex.value.trim();
        if (apply(hex, v)) picker.value = v.slice(0, 7).toLowerCase();
      });
      control = {
        show: (v) => {
          hex.value = shortColor(v);
          picker.value = v.slice(0, 7).toLowerCase();
        },
        error,
        inputs: [picker, hex],
      };
      row.append(picker, hex);
      box.append(label, row);
    }
    if (help) box.append(help);
    box.append(error);
    form.append(box);
    controls.set(name, control);
    const v = o.values[name];
    if (v !== undefined) control.show(v);
  }
  if (controls.size === 0) form.append(el('p', { class: 'help' }, 'This style declares no params.'));

  return {
    setValues(values) {
      for (const [name, c] of controls) {
        const v = values[name];
        if (v !== undefined) c.show(v);
        c.error.hidden = true;
        c.error.textContent = '';
        for (const i of c.inputs) i.removeAttribute('aria-invalid');
      }
    },
  };
}
