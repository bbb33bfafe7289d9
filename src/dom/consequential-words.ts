/*
 * Words that say a control does something that cannot be taken back: delete, pay, buy, order,
 * send, transfer, subscribe, cancel a subscription, close an account, sign out. A click on a
 * control whose visible name says so is irreversible before it runs (the effect fence catches
 * what a click sends; these words cover what it cannot see: a WebSocket, a worker, a script that
 * kept its own `fetch`). The same words tell whether a todo announced such a step.
 *
 * Latin-script words match whole words (any case, any spacing between the words of a phrase);
 * Japanese ones match anywhere in the text. Inflections are listed, not guessed.
 */

/** What a consequential name says the control does; `send`, `leave`, `new-window` and `download` also name what an effect does. */
export type ConsequenceKind =
  | 'delete'
  | 'pay'
  | 'buy'
  | 'order'
  | 'send'
  | 'transfer'
  | 'subscribe'
  | 'unsubscribe'
  | 'close-account'
  | 'sign-out'
  | 'leave'
  | 'new-window'
  | 'download';

/** Words a host adds, by kind: `{ delete: ['purge'], pay: ['settle the bill'] }`. */
export type ConsequentialWords = Readonly<Partial<Record<ConsequenceKind, readonly string[]>>>;

/**
 * The built-in words, English, German and Japanese, by what they say the control does. Order
 * matters: the first kind whose words match names the consequence ("Close account" is
 * `close-account` before "close" could mean anything).
 *
 * @example
 * ```ts
 * CONSEQUENTIAL_WORDS['sign-out']; // ['sign out', 'log out', …]
 * ```
 */
export const CONSEQUENTIAL_WORDS: Readonly<Record<ConsequenceKind, readonly string[]>> = {
  'close-account': [
    'close account',
    'close my account',
    'close your account',
    'delete account',
    'delete my account',
    'delete your account',
    'deactivate',
    'deactivate account',
    'terminate account',
    'konto schließen',
    'konto löschen',
    'konto deaktivieren',
    'account löschen',
    'アカウント削除',
    'アカウントを削除',
    '退会',
  ],
  unsubscribe: [
    'unsubscribe',
    'cancel subscription',
    'cancel my subscription',
    'cancel your subscription',
    'cancel plan',
    'cancel my plan',
    'cancel membership',
    'end subscription',
    'kündigen',
    'kündige',
    'abo kündigen',
    'abo beenden',
    'abbestellen',
    'abmelden vom newsletter',
    '解約',
    '購読解除',
    '登録解除',
    '購読を停止',
  ],
  'sign-out': ['sign out', 'signout', 'log out', 'logout', 'log off', 'abmelden', 'ausloggen', 'ログアウト', 'サインアウト'],
  delete: [
    'delete',
    'deletes',
    'delete all',
    'remove',
    'removes',
    'erase',
    'destroy',
    'discard',
    'wipe',
    'empty trash',
    'löschen',
    'lösche',
    'entfernen',
    'entferne',
    'verwerfen',
    '削除',
    '消去',
    '破棄',
  ],
  transfer: [
    'transfer',
    'transfer money',
    'transfer now',
    'wire',
    'überweisen',
    'überweise',
    'überweisung ausführen',
    'jetzt überweisen',
    '振込',
    '振り込',
    '送金',
  ],
  pay: [
    'pay',
    'pay now',
    'pays',
    'make payment',
    'complete payment',
    'confirm payment',
    'bezahlen',
    'zahlen',
    'jetzt bezahlen',
    'zahlungspflichtig bestellen',
    '支払う',
    '支払い',
    'お支払い',
    '決済',
  ],
  buy: ['buy', 'buy now', 'buys', 'purchase', 'upgrade', 'kaufen', 'kaufe', 'jetzt kaufen', 'upgraden', '購入', '買う', 'アップグレード'],
  order: [
    'order now',
    'place order',
    'place my order',
    'place your order',
    'complete order',
    'confirm order',
    'submit order',
    'book now',
    'reserve now',
    'bestellen',
    'bestelle',
    'jetzt bestellen',
    'buchen',
    'jetzt buchen',
    '注文',
    '予約する',
  ],
  subscribe: ['subscribe', 'subscribes', 'abonnieren', 'abonniere', '購読する', '定期購入', '申し込む', 'お申し込み'],
  send: [
    'send',
    'sends',
    'send now',
    'submit',
    'publish',
    'senden',
    'sende',
    'absenden',
    'abschicken',
    'schicken',
    'veröffentlichen',
    '送信',
    '送る',
    '投稿',
    '公開する',
  ],
  leave: [],
  'new-window': [],
  download: [],
};

/** A price in a name ("Upgrade to Pro €99", "Pay $10", "1.000 ¥"): the click costs money. */
const PRICE = /[€$£¥₹]\s?\d|\d(?:[.,]\d+)?\s?(?:€|eur\b|usd\b|chf\b|円)/iu;

/** Kinds the name check reports: the page's words, not an effect's. */
const NAME_KINDS = [
  'close-account',
  'unsubscribe',
  'sign-out',
  'delete',
  'transfer',
  'pay',
  'buy',
  'order',
  'subscribe',
  'send',
] as const satisfies readonly ConsequenceKind[];

/**
 * What a control's name says it does when that cannot be undone (`'delete'`, `'pay'`, …), or
 * `undefined` for an ordinary name. A price in the name ("Upgrade to Pro €99") is `'pay'`.
 * `extra` adds a host's words. Default: the built-in English, German and Japanese words.
 *
 * @example
 * ```ts
 * consequenceInName('Delete account now'); // 'close-account'
 * consequenceInName('Jetzt kaufen'); // 'buy'
 * consequenceInName('ログアウト'); // 'sign-out'
 * consequenceInName('Show more'); // undefined
 * consequenceInName('Purge the cache', { delete: ['purge'] }); // 'delete'
 * ```
 */
export function consequenceInName(name: string, extra?: ConsequentialWords): ConsequenceKind | undefined {
  const text = normalise(name);
  if (!text) return undefined;
  for (const kind of NAME_KINDS) {
    if (CONSEQUENTIAL_WORDS[kind].some((word) => hasWord(text, word))) return kind;
    if ((extra?.[kind] ?? []).some((word) => hasWord(text, word))) return kind;
  }
  for (const [kind, words] of Object.entries(extra ?? {}) as Array<[ConsequenceKind, readonly string[] | undefined]>) {
    if ((words ?? []).some((word) => hasWord(text, word))) return kind;
  }
  return PRICE.test(text) ? 'pay' : undefined;
}

/** Words that announce a step that writes or sends, whatever it is (an update, a save, a form). */
const WRITE_WORDS = [
  'save',
  'update',
  'change',
  'edit',
  'submit',
  'confirm',
  'apply',
  'register',
  'sign up',
  'create',
  'add',
  'upload',
  'fill',
  'enter',
  'send',
  'complete',
  'speichern',
  'ändern',
  'aktualisieren',
  'bestätigen',
  'registrieren',
  'anlegen',
  'hinzufügen',
  'ausfüllen',
  'eintragen',
  'absenden',
  '保存',
  '更新',
  '変更',
  '確定',
  '登録',
  '作成',
  '追加',
  '入力',
];
const LEAVE_WORDS = ['leave', 'another site', 'other site', 'external', 'website of', 'verlassen', 'externe', 'andere seite', '外部', '他のサイト'];
const WINDOW_WORDS = ['new tab', 'new window', 'popup', 'pop-up', 'neuen tab', 'neues fenster', '新しいタブ', '新しいウィンドウ'];
const DOWNLOAD_WORDS = ['download', 'export', 'herunterladen', 'exportieren', 'ダウンロード', 'エクスポート'];
const MONEY: readonly ConsequenceKind[] = ['pay', 'buy', 'order', 'transfer', 'subscribe'];

/**
 * Whether a todo's words announce a step of `kind`: "Delete the old draft" announces a delete,
 * "Update the display name" announces sending a form, "Open the pricing page" announces neither.
 * A step that leaves the site or opens a window is announced by the destination's host
 * (`destination`) or by words such as "another site" or "new tab"; a download by "download" or
 * "export". Money kinds announce each other ("Buy the Pro plan" announces a payment).
 *
 * @example
 * ```ts
 * announces('Open the pricing page', 'send'); // false
 * announces('Update the display name', 'send'); // true
 * announces('Read the docs on docs.example.com', 'leave', 'https://docs.example.com/start'); // true
 * ```
 */
export function announces(text: string, kind: ConsequenceKind | (string & {}), destination?: string, extra?: ConsequentialWords): boolean {
  const words = normalise(text);
  if (!words) return false;
  const said = consequenceInName(words, extra);
  const any = (list: readonly string[]) => list.some((word) => hasWord(words, word));
  switch (kind) {
    case 'leave':
    case 'new-window': {
      const host = hostOf(destination);
      if (host && words.includes(host.replace(/^www\./, ''))) return true;
      return any(LEAVE_WORDS) || (kind === 'new-window' && any(WINDOW_WORDS));
    }
    case 'download':
      return any(DOWNLOAD_WORDS);
    case 'send':
      return said !== undefined || any(WRITE_WORDS);
    case 'delete':
    case 'close-account':
      return said === 'delete' || said === 'close-account';
    default:
      if (said === kind) return true;
      return MONEY.includes(kind as ConsequenceKind) && said !== undefined && MONEY.includes(said);
  }
}

function normalise(text: string): string {
  return text.normalize('NFKC').replace(/\s+/g, ' ').trim().toLowerCase();
}

/** Whether `text` (normalised) holds `word`: a whole word or phrase in Latin script, anywhere in Japanese. */
function hasWord(text: string, word: string): boolean {
  const wanted = normalise(word);
  if (!wanted) return false;
  if (/[\u3000-\u9fff\uff00-\uffef]/u.test(wanted)) return text.includes(wanted);
  let from = 0;
  for (let at = text.indexOf(wanted, from); at >= 0; at = text.indexOf(wanted, from)) {
    const before = text[at - 1];
    const after = text[at + wanted.length];
    if (!isLetter(before) && !isLetter(after)) return true;
    from = at + 1;
  }
  return false;
}

function isLetter(char: string | undefined): boolean {
  return char !== undefined && /[\p{L}\p{N}]/u.test(char);
}

function hostOf(url: string | undefined): string | undefined {
  if (!url) return undefined;
  try {
    return new URL(url).host.toLowerCase();
  } catch {
    return undefined;
  }
}
