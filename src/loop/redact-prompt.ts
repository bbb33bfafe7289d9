import type { LLMMessage } from '../llm/provider.js';
import { redactValues } from '../secret-text.js';

/*
 * The host's secrets (the values `{{secret:name}}` stands for when `fill` types them) never go to
 * the model: a page that echoes one back (a "your password is …" banner, a field's value in a
 * URL) has it replaced by `[secret]` in every message of a turn, wherever it stands.
 */

/**
 * The values a host keeps from the model: the same map of names to values `fill` gets as
 * `secrets`, a list of values, or a function that lists them (asked before each turn).
 */
export type HostSecrets = Readonly<Record<string, string>> | readonly string[] | (() => Iterable<string>);

/**
 * `messages` with every occurrence of a value of `secrets` replaced by `[secret]` (any letter
 * case, URL-encoded, or with invisible characters between its letters; values under 4 characters
 * are not looked for). Without secrets, the messages as they are.
 *
 * @example
 * ```ts
 * redactHostSecrets([{ role: 'user', content: 'Page: Your password is hunter2-horse' }], { password: 'hunter2-horse' });
 * // [{ role: 'user', content: 'Page: Your password is [secret]' }]
 * ```
 */
export function redactHostSecrets(messages: LLMMessage[], secrets: HostSecrets | undefined): LLMMessage[] {
  if (!secrets) return messages;
  const listed = typeof secrets === 'function' ? Array.from(secrets()) : Array.isArray(secrets) ? (secrets as readonly string[]) : Object.values(secrets);
  const values = listed.filter((value): value is string => typeof value === 'string');
  if (values.length === 0) return messages;
  return messages.map((message) => ({ ...message, content: redactValues(message.content, values) }));
}
