// Which language a user wrote in, from the words of their ask alone: the guide plans in it (the
// planner's `locale`), and falls back to the browser's language when the ask does not tell (a
// single product name, "SSO?"). A small heuristic, not a classifier: scripts first (kana means
// Japanese, Han alone Chinese, Hangul Korean), then the short words each language is made of.

/** The languages the demo is written in: the guide's words (guide-words.ts) and the offline model's (offline-model/phrases.ts). */
export type Lang = 'en' | 'de' | 'ja';

/** The short, frequent words of each Latin-script language the heuristic tells apart. */
const COMMON_WORDS: Record<'en' | 'de' | 'fr' | 'es', ReadonlySet<string>> = {
  en: new Set(
    'the a an and is are i me my you your show tell how what where which please with for about can could would want to of it this that page plans pricing try compare introduce do does'.split(
      ' ',
    ),
  ),
  de: new Set(
    'der die das den dem des und ist sind ich mir mich du dein zeig zeige zeigen wie was wo welche bitte ein eine einen mit für über kann können möchte gibt es nicht auf zu seite preise pläne tarife testen ausprobieren vergleiche stell vor erkläre'.split(
      ' ',
    ),
  ),
  fr: new Set('le la les et est je moi me montre montrez comment quoi où quel quelle avec pour des une un du sur page prix essayer comparer'.split(' ')),
  es: new Set('el la los las y es yo me muestra muéstrame cómo qué dónde cuál con para una un del por página precios probar comparar'.split(' ')),
};

/** Letters only one of the languages above uses. */
const MARKS: Record<'de' | 'fr' | 'es', RegExp> = { de: /[äöüß]/, fr: /[éèêëàâçîïôûœ]/, es: /[ñ¿¡áíóú]/ };

/**
 * The language `text` is written in, as a BCP-47 primary tag (`en`, `de`, `ja`, …), or
 * `undefined` when its words do not tell.
 *
 * @example
 * ```ts
 * languageOf('Zeig mir die Preise'); // 'de'
 * languageOf('料金ページを紹介して'); // 'ja'
 * languageOf('SSO?');                // undefined: use navigator.language
 * ```
 */
export function languageOf(text: string): string | undefined {
  if (/[\u3040-\u30ff]/.test(text)) return 'ja';
  if (/[\uac00-\ud7af]/.test(text)) return 'ko';
  if (/[\u4e00-\u9fff]/.test(text)) return 'zh';
  const lower = text.toLowerCase();
  const words = lower.match(/[\p{L}]+/gu) ?? [];
  let best: string | undefined;
  let bestScore = 0;
  for (const [language, common] of Object.entries(COMMON_WORDS)) {
    const marks = language in MARKS ? (lower.match(new RegExp(MARKS[language as keyof typeof MARKS], 'g'))?.length ?? 0) : 0;
    const score = words.filter((word) => common.has(word)).length + marks;
    if (score > bestScore) {
      best = language;
      bestScore = score;
    } else if (score === bestScore) best = undefined;
  }
  return bestScore > 0 ? best : undefined;
}
