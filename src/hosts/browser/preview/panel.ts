// The params panel: one native form control per param, generated from the params JSON Schema
// (bounded number -> range + number box, other number -> number box, colour -> colour picker +
// text field taking hex or CSS colour names, bool -> checkbox), under the declarations' optional
// `group` headings with their `label`s. Every edit goes through `onChange`, which validates like
// the server.

import { parseColor, valueKey } from '../../../params/index.js';

export interface ParamProperty {
  type?: string;
  minimum?: number;
  maximum?: number;
  default?: unknown;
  description?: string;
  /** The declaration's `label`. */
  title?: string;
  /** The declaration's `group`. */
  'x-group'?: string;
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

/**
 * The slider's step, which the arrow keys also take: a power of ten giving 20 to 200 steps over
 * the range (0..4 steps by 0.1, 0..1 by 0.01, 0..360 by 10), made finer until the default and both
 * bounds sit on the grid (a range input snaps to min + k*step). The number box takes any value.
 */
export function rangeStep(min: number, max: number, def: number): number {
  const span = max - min;
  let step = span > 0 ? 10 ** Math.floor(Math.log10(span / 20)) : 1;
  const onGrid = (x: number) => Math.abs(Math.round(x / step) * step - x) <= step * 1e-6;
  for (let i = 0; i < 8 && !(onGrid(def - min) && onGrid(span)); i++) step /= 10;
  return step;
}

/** #rrggbbaa -> #rrggbb when opaque (how a person writes it, and what a URL should carry). */
export function shortColor(hex: string): string {
  return /^#[0-9a-f]{6}ff$/i.test(hex) ? hex.slice(0, 7) : hex;
}

/**
 * A number as typed by a person: blanks trimmed, a lone decimal comma read as a point ('2,5' is
 * 2.5, never 25). Anything else is passed on for the param parser to refuse with its sentence.
 */
export function normalizeNumber(text: string): string {
  const t = text.trim();
  return /^-?\d*,\d+$/.test(t) ? t.replace(',', '.') : t;
}

/**
 * A colour as typed by a person, through the param parser every host uses (params/index.ts
 * parseColor: hex, or a CSS colour such as `rebeccapurple`, rgb(), hsl()), stored as #rrggbb
 * (#rrggbbaa when not opaque). Undefined when it is no colour.
 */
export function normalizeColor(text: string): string | undefined {
  const c = parseColor(text);
  return c ? shortColor(valueKey(c)) : undefined;
}

export function el<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Record<string, string> = {}, text?: string): HTMLElementTagNameMap[K] {
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
  const props = (o.schema.properties ?? {}) as Record<string, ParamProperty>;
  const controls = new Map<string, Control>();
  form.replaceChildren();
  form.addEventListener('submit', (e) => e.preventDefault()); // Enter in a field must not reload the page
  // Groups in order of first appearance; ungrouped params first, in declaration order.
  const groups = new Map<string, HTMLElement>();
  const containerFor = (group: string | undefined): HTMLElement => {
    if (!group) return form;
    let fs = groups.get(group);
    if (!fs) {
      fs = el('fieldset', { class: 'param-group', 'data-group': group });
      fs.append(el('legend', {}, group));
      groups.set(group, fs);
    }
    return fs;
  };
  let n = 0;
  for (const [name, p] of Object.entries(props)) {
    const id = `param-${n++}`;
    const kind = p['x-param-type'] ?? (p.type === 'boolean' ? 'bool' : p.type === 'number' ? 'number' : 'color');
    const box = el('div', { class: `param param-${kind}`, 'data-param': name });
    const title = p.title ?? name;
    const label = el('label', { for: id }, title);
    if (p.title) label.title = name; // the param's own name (the URL and --param key) on hover
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
    const f: Field = { id, name, p, title, describedBy: describedBy.join(' '), apply };
    if (kind === 'bool') {
      control = boolControl(f, error, row, label);
      box.append(row);
    } else {
      control = kind === 'number' ? numberControl(f, error, row) : colorControl(f, error, row);
      box.append(label, row);
    }
    if (help) box.append(help);
    box.append(error);
    containerFor(p['x-group']).append(box);
    controls.set(name, control);
    const v = o.values[name];
    if (v !== undefined) control.show(v);
  }
  for (const fs of groups.values()) form.append(fs);
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

/** One param's control as its builder sees it: the ids and texts, and `apply` (validate, report, true when taken). */
interface Field {
  id: string;
  name: string;
  p: ParamProperty;
  title: string;
  describedBy: string;
  apply(input: HTMLInputElement, value: string): boolean;
}

/** A checkbox, its label after it in the row. */
function boolControl(f: Field, error: HTMLElement, row: HTMLElement, label: HTMLElement): Control {
  const { apply } = f;
  const input = el('input', { type: 'checkbox', id: f.id, name: f.name, 'aria-describedby': f.describedBy });
  input.addEventListener('change', () => apply(input, String(input.checked)));
  const control: Control = { show: (v) => (input.checked = v === 'true'), error, inputs: [input] };
  row.append(input, label);
  return control;
}

/** A number box, and a slider before it when both bounds are declared. */
function numberControl(f: Field, error: HTMLElement, row: HTMLElement): Control {
  const { id, name, p, title, apply } = f;
  // A number box always; a slider beside it when both bounds are declared. The box takes
  // exact values (typed, or stepped by the arrow keys on the slider's grid).
  const bounded = typeof p.minimum === 'number' && typeof p.maximum === 'number';
  const def = typeof p.default === 'number' ? p.default : (p.minimum ?? 0);
  const step = bounded ? String(rangeStep(p.minimum!, p.maximum!, def)) : 'any';
  const slider = bounded
    ? el('input', { type: 'range', id: f.id, name: f.name, min: String(p.minimum), max: String(p.maximum), step, 'aria-describedby': f.describedBy })
    : undefined;
  const box2 = el('input', {
    type: 'text',
    inputmode: 'decimal',
    class: 'num',
    spellcheck: 'false',
    autocomplete: 'off',
    id: slider ? `${id}-num` : id,
    'data-step': step,
    'aria-describedby': f.describedBy,
    ...(slider ? { 'aria-label': `${title}, exact value` } : { name }),
  });
  const commit = () => {
    const v = normalizeNumber(box2.value);
    if (apply(box2, v)) {
      box2.value = v;
      if (slider) slider.value = v;
    }
  };
  box2.addEventListener('change', commit);
  box2.addEventListener('keydown', (e) => {
    if (e.key !== 'ArrowUp' && e.key !== 'ArrowDown') return;
    const cur = Number(normalizeNumber(box2.value));
    if (!Number.isFinite(cur)) return;
    e.preventDefault();
    const st = step === 'any' ? 1 : Number(step);
    let next = Math.round((cur + (e.key === 'ArrowUp' ? st : -st)) / st) * st;
    if (typeof p.minimum === 'number') next = Math.max(p.minimum, next);
    if (typeof p.maximum === 'number') next = Math.min(p.maximum, next);
    box2.value = String(Number(next.toPrecision(12)));
    commit();
  });
  slider?.addEventListener('input', () => {
    box2.value = slider.value;
    apply(slider, slider.value);
  });
  const control: Control = {
    show: (v) => {
      if (slider) slider.value = v;
      box2.value = v;
    },
    error,
    inputs: slider ? [slider, box2] : [box2],
  };
  if (slider) row.append(slider);
  row.append(box2);
  return control;
}

/** A colour picker and a text field for hex or CSS colours (the picker knows no alpha). */
function colorControl(f: Field, error: HTMLElement, row: HTMLElement): Control {
  const { id, title, apply } = f;
  // <input type=color> knows only #rrggbb: the text field beside it keeps (and edits) the alpha,
  // and takes #rgb, CSS colour names, rgb() and hsl(), stored as #rrggbb.
  const picker = el('input', { type: 'color', id: f.id, name: f.name, 'aria-describedby': f.describedBy });
  const hex = el('input', {
    type: 'text',
    id: `${id}-hex`,
    class: 'hex',
    spellcheck: 'false',
    autocomplete: 'off',
    'aria-label': `${title} as hex (#rrggbb, #rgb, #rrggbbaa) or a CSS colour name`,
    'aria-describedby': f.describedBy,
  });
  picker.addEventListener('input', () => {
    const alpha = /^#[0-9a-f]{8}$/i.test(hex.value) ? hex.value.slice(7) : '';
    const v = shortColor(picker.value + alpha);
    hex.value = v;
    apply(picker, v);
  });
  hex.addEventListener('change', () => {
    // Not a colour at all: the param parser refuses it with the server's sentence.
    const v = normalizeColor(hex.value) ?? hex.value.trim();
    if (apply(hex, v)) {
      hex.value = v;
      picker.value = v.slice(0, 7);
    }
  });
  const control: Control = {
    show: (v) => {
      hex.value = shortColor(v);
      picker.value = v.slice(0, 7).toLowerCase();
    },
    error,
    inputs: [picker, hex],
  };
  row.append(picker, hex);
  return control;
}
