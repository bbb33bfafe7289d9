import { accessibleName } from './accessible-name.js';
import { PRIVATE_ATTRIBUTE, isSecretField } from './element-state.js';
import { elementRole } from './element-role.js';
import { resolveTarget, type ResolveFailureReason, type ResolveTargetOptions } from './resolve-target.js';
import { closestAcross } from './flat-tree.js';
import { fenceEffects, type EffectFenceOptions } from './effect-fence.js';
import { fillWords } from './effect-words.js';
import { unseenReason } from './sighted.js';
import { SECRET_PLACEHOLDER } from '../secret-text.js';

/*
 * Typing for a model, with secrets kept out of its sight: the model writes a placeholder such as
 * `{{secret:password}}`, and the host's resolver puts the real value into the field when the
 * action runs. The model never reads a secret (the outline withholds secret values) and never
 * writes one.
 */

/** Where {@link fill} gets a secret's value from: a map of names to values, or a function (asked when the action runs). */
export type SecretSource = Readonly<Record<string, string>> | ((name: string, field: Element) => string | undefined | Promise<string | undefined>);

/** Options of {@link fill}: where to look (as {@link resolveTarget}), where secrets come from, and the effect fence's (see `fenceEffects`). */
export interface FillOptions
  extends ResolveTargetOptions,
    Pick<EffectFenceOptions, 'allowedOrigins' | 'readOrigins' | 'allowDownloads' | 'probeNavigations' | 'settleMs' | 'maxMs' | 'onLate'> {
  /** The secrets a model may name (never see): `{{secret:name}}` in a value is replaced by this source's value. Default: none. */
  secrets?: SecretSource | undefined;
  /**
   * Asks the user about what typing sets off (a select whose `change` handler submits its form, a
   * field that saves as you type to another site): pass the loop's `context.confirm`. Default
   * none: whatever typing sets off that is held is stopped.
   */
  confirm?: EffectFenceOptions['confirm'];
}

/** Why {@link fill} did not type. */
export type FillRefusal =
  | ResolveFailureReason
  | 'not-a-field'
  | 'disabled'
  | 'no-such-option'
  | 'secret-literal'
  | 'secret-elsewhere'
  | 'unknown-secret'
  | 'effect-stopped';

/** What {@link fill} did, or why it did not; JSON-able. A secret's value is never in it. */
export type FillResult =
  | {
      ok: true;
      target: string;
      ref?: string;
      /** In words, for the model: `Filled e5 (textbox "Password") with secret "password"`. */
      detail: string;
      /** What the field holds now, as the model may see it: the text typed, or `'withheld'` for a secret field. */
      value: string;
    }
  | { ok: false; target: string; reason: FillRefusal; message: string };

/**
 * Types `value` into the field `target` names (an outline ref by default, resolved as
 * {@link resolveTarget} does), as a user would: the value set through the field's own setter (so
 * frameworks see it), then `input` and `change` events. A select takes an option's value or text;
 * a contenteditable region takes text.
 *
 * Secrets: a field whose value the outline withholds (a password field, present or former, card
 * data, a one-time code, a field named like a secret, anything `[data-planloop-private]`) takes
 * only placeholders, `{{secret:name}}`, which `secrets` fills in now; a literal value is refused,
 * and so is a placeholder into an ordinary field (where the page, and so the model, could read
 * it back). The result never carries a secret's value.
 *
 * The typing runs inside an effect fence (see `fenceEffects`): a select whose `change` handler
 * submits its form, or a field that sends what is typed to another site, is held and asked about
 * through `confirm` (`Choose "Express" in the list "Shipping". It sends the form "Order" to
 * /order: Shipping.`); a no or no `confirm` stops it, and the result says so (`effect-stopped`).
 * Defaults: refs only, no secrets, no `confirm` (held effects stopped), the fence's defaults.
 *
 * @example
 * ```ts
 * import { fill } from 'planloop/dom';
 *
 * declare const vault: { password(): string };
 * const tools: Record<string, LoopTool> = {
 *   fill: {
 *     risk: 'write',
 *     description: 'type into a field {target, value}; for a password type {{secret:password}}',
 *     run: ({ target, value }) => fill(String(target), String(value ?? ''), { secrets: (name) => (name === 'password' ? vault.password() : undefined) }),
 *   },
 * };
 * ```
 */
export async function fill(target: unknown, value: unknown, options: FillOptions = {}): Promise<FillResult> {
  const given = typeof target === 'string' ? target.trim() : String(target ?? '');
  const refuse = (reason: FillRefusal, message: string): FillResult => ({ ok: false, target: given, reason, message });
  const found = resolveTarget(target, options);
  if (!found.ok) return refuse(found.reason, found.message);
  const { element, ref } = found;
  const role = elementRole(element) ?? element.localName;
  const name = accessibleName(element, role);
  const what = `${ref ? `${ref} ` : ''}(${role}${name ? ` "${clip(name)}"` : ''})`;
  // The sight rule, as for an action: a field under something opaque (even one that lets clicks through) is not typed into.
  if (unseenReason(element, { ...(options.layout === undefined ? {} : { layout: options.layout }), acting: true }) === 'covered') {
    return refuse('hidden', `${what} is covered by something drawn over it; deal with that first (close it, or scroll).`);
  }
  const text = typeof value === 'string' ? value : value === undefined || value === null ? '' : String(value);

  const tag = element.localName;
  const type = tag === 'input' ? (element.getAttribute('type') ?? 'text').toLowerCase() : '';
  const editable = tag !== 'input' && tag !== 'textarea' && tag !== 'select' && (element as HTMLElement).isContentEditable === true;
  const isTextInput = tag === 'input' && !['checkbox', 'radio', 'button', 'submit', 'reset', 'image', 'file', 'hidden', 'range', 'color'].includes(type);
  if (!isTextInput && tag !== 'textarea' && tag !== 'select' && !editable && element.getAttribute('contenteditable') === null) {
    return refuse('not-a-field', `${what} is not a field to type into${type === 'checkbox' || type === 'radio' ? '; click it to change it' : ''}.`);
  }
  if ((element as HTMLInputElement).disabled || element.getAttribute('aria-disabled') === 'true' || (element as HTMLInputElement).readOnly) {
    return refuse('disabled', `${what} cannot be typed into now (disabled or read-only).`);
  }

  const secretField = isSecretField(element) || closestAcross(element, `[${PRIVATE_ATTRIBUTE}]`) !== null;
  const names = Array.from(text.matchAll(SECRET_PLACEHOLDER), (match) => match[1] as string);
  const offered = options.secrets && typeof options.secrets === 'object' ? Object.keys(options.secrets) : [];
  const offer = offered.length > 0 ? ` The secrets this host offers: ${offered.map((n) => `{{secret:${n}}}`).join(', ')}.` : '';
  let typed = text;
  if (names.length > 0) {
    if (!secretField) {
      return refuse(
        'secret-elsewhere',
        `${what} is not a secret field: a secret goes only into a password, card, one-time-code or private field, where the page cannot show it back.`,
      );
    }
    const values = new Map<string, string>();
    for (const secret of new Set(names)) {
      const resolved = await secretValue(options.secrets, secret, element);
      if (resolved === undefined)
        return refuse('unknown-secret', `There is no secret named "${clip(secret)}" here.${offer || ' This host offers no secrets.'}`);
      values.set(secret, resolved);
    }
    typed = text.replace(SECRET_PLACEHOLDER, (_, secret: string) => values.get(secret) ?? '');
  } else if (secretField && text !== '') {
    return refuse(
      'secret-literal',
      `${what} is a secret field: do not type its value; type a placeholder such as {{secret:password}} and the host fills it in.${offer || ' This host offers no secrets, so ask the user to fill it in.'}`,
    );
  }

  let option: HTMLOptionElement | undefined;
  if (tag === 'select') {
    const select = element as HTMLSelectElement;
    const wanted = typed.trim().toLowerCase();
    option = Array.from(select.options).find((o) => o.value === typed || (o.textContent ?? '').trim().toLowerCase() === wanted);
    if (!option) {
      const choices = Array.from(select.options, (o) => (o.textContent ?? '').trim())
        .slice(0, 8)
        .join(', ');
      return refuse('no-such-option', `"${clip(text)}" is not an option of ${what}; the options: ${choices}.`);
    }
  }
  // Typing runs the page's input and change handlers: what they set off is held like a click's.
  const chosen = option;
  const fenced = await fenceEffects(
    () => {
      if (chosen) (element as HTMLSelectElement).value = chosen.value;
      else if (tag === 'input' || tag === 'textarea') {
        (element as HTMLElement).focus?.({ preventScroll: true });
        setNativeValue(element as HTMLInputElement, typed);
      } else {
        (element as HTMLElement).focus?.({ preventScroll: true });
        element.textContent = typed;
      }
      element.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
      element.dispatchEvent(new Event('change', { bubbles: true }));
    },
    {
      action: fillWords(element, chosen ? (chosen.textContent ?? '').trim() : typed, secretField),
      confirm: options.confirm,
      allowedOrigins: options.allowedOrigins,
      readOrigins: options.readOrigins,
      allowDownloads: options.allowDownloads,
      probeNavigations: options.probeNavigations,
      settleMs: options.settleMs,
      maxMs: options.maxMs,
      onLate: options.onLate,
      window: element.ownerDocument.defaultView ?? undefined,
    },
  );

  const shown = secretField ? 'withheld' : clip(typed, 60);
  const detail = secretField
    ? `Filled ${what} with ${names.length > 0 ? `secret ${[...new Set(names)].map((n) => `"${n}"`).join(', ')}` : 'nothing'}`
    : `Filled ${what} with "${shown}"`;
  if (fenced.stopped) return refuse('effect-stopped', `${detail}. ${fenced.stopped}`);
  const released = fenced.effects.filter((effect) => effect.outcome === 'released');
  const then = released.length > 0 ? `; then, as approved: ${released.map((effect) => effect.what).join('; ')}` : '';
  return { ok: true, target: given, ...(ref ? { ref } : {}), detail: `${detail}${then}`, value: shown };
}

async function secretValue(source: SecretSource | undefined, name: string, field: Element): Promise<string | undefined> {
  if (!source) return undefined;
  if (typeof source === 'function') {
    try {
      const value = await source(name, field);
      return typeof value === 'string' ? value : undefined;
    } catch {
      return undefined;
    }
  }
  return Object.hasOwn(source, name) && typeof source[name] === 'string' ? source[name] : undefined;
}

/** Sets a field's value through its prototype's setter: React and other frameworks track that one, not the instance's. */
function setNativeValue(field: HTMLInputElement | HTMLTextAreaElement, value: string): void {
  const prototype = Object.getPrototypeOf(field) as object;
  const setter = Object.getOwnPropertyDescriptor(prototype, 'value')?.set;
  if (setter) setter.call(field, value);
  else field.value = value;
}

function clip(text: string, max = 40): string {
  const line = text.replace(/\s+/g, ' ').trim().replace(/"/g, "'");
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}
