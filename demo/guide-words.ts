// The guide's own words (its status line, its buttons, the narration's Next) and the plan panel's
// (`<plan-panel>`'s `strings`), in each language of the demo (language.ts): a German
// or Japanese tour is run in German or Japanese, from its plan to its last status line and the ask
// box it leaves for the next question. The rest of the demo (the site toured, the tabs, Notes,
// Settings, the model badge) follows the same language through demo-words.ts; the suggestions stay
// English (English asks, which plan English tours).

import { PLAN_PANEL_STRINGS, type PlanPanelStrings } from 'planloop/ui';
import type { Lang } from './language.js';

/** What the guide says and labels, in one language. */
export interface GuideWords {
  /** The panel's words. */
  panel: PlanPanelStrings;
  stop: string;
  resume: string;
  clear: string;
  next: string;
  answer: string;
  /** The ask box's label and button. */
  askLabel: string;
  ask: string;
  planning: string;
  resuming: (hint: string) => string;
  /** How the user ends a tour, with a keyboard or a finger. */
  stopHintKeys: string;
  stopHintTouch: string;
  readyKeys: string;
  readyTouch: string;
  touring: (hint: string) => string;
  /** A canned ask's recorded tour is loading, then playing: no model call unless the page changed. */
  loadingRecorded: string;
  recordedTouring: (hint: string) => string;
  cancelled: string;
  outOfTurns: string;
  /** The run ended because steps it claimed were not shown done on the page. */
  unverified: string;
  finished: (summary: string | undefined) => string;
  stopped: string;
  failed: (message: string) => string;
  couldNotPlan: (message: string) => string;
  cleared: string;
  unfinished: string;
}

const EN: GuideWords = {
  panel: { ...PLAN_PANEL_STRINGS, heading: 'Tour plan', approve: 'Start the tour', decline: 'Cancel' },
  stop: 'Stop',
  resume: 'Continue the tour',
  clear: 'Clear plan',
  next: 'Next',
  answer: 'Answer',
  askLabel: 'Ask the guide',
  ask: 'Ask',
  planning: 'Planning the tour…',
  resuming: (hint) => `Resuming the tour where it stopped… ${hint}`,
  stopHintKeys: 'Esc or Stop ends it.',
  stopHintTouch: 'Stop ends it.',
  readyKeys: 'The plan is ready: press Space or Start the tour to begin, Esc to cancel.',
  readyTouch: 'The plan is ready: tap Start the tour to begin.',
  touring: (hint) => `Touring… ${hint}`,
  loadingRecorded: 'Opening a recorded tour…',
  recordedTouring: (hint) => `Playing a recorded tour: no model call unless the page changed. ${hint}`,
  cancelled: 'Tour cancelled. Ask again whenever you like.',
  outOfTurns: 'The guide ran out of turns before finishing.',
  unverified: 'The guide stopped: some steps did not show as done on the page (the plan marks them).',
  finished: (summary) => (summary ? `Tour finished: ${summary}` : 'Tour finished.'),
  stopped: 'Tour stopped.',
  failed: (message) => `The tour failed: ${message}`,
  couldNotPlan: (message) => `Could not plan a tour: ${message}`,
  cleared: 'Plan cleared.',
  unfinished: 'A tour was left unfinished. Continue it, or ask for something else.',
};

const DE: GuideWords = {
  panel: {
    heading: 'Tourplan',
    approve: 'Tour starten',
    decline: 'Abbrechen',
    empty: 'Noch kein Plan.',
    status: { pending: 'Offen', in_progress: 'Läuft', completed: 'Erledigt' },
    evidence: { checked: 'Erledigt, geprüft', unchecked: 'Erledigt (ungeprüft)', held: 'Noch nicht erledigt: kein Zeichen davon', declined: 'Abgelehnt' },
    hintKeys:
      'Ändere den Plan vorher, wenn du magst: ↑ und ↓ wählen einen Schritt, Tab erreicht seine Knöpfe; Enter bearbeitet ihn, Entf entfernt ihn, Alt+↑ und Alt+↓ verschieben ihn.',
    hintTouch: 'Ändere den Plan vorher, wenn du magst: Tippe auf einen Schritt, um ihn zu bearbeiten, zu verschieben oder zu entfernen.',
    editStep: (step) => `Schritt ${step} bearbeiten`,
    moveUp: (step) => `Schritt ${step} nach oben`,
    moveDown: (step) => `Schritt ${step} nach unten`,
    removeStep: (step) => `Schritt ${step} entfernen`,
    stepText: (step) => `Text von Schritt ${step}`,
    undo: 'Rückgängig',
    removedLine: (text) => `„${text}“ entfernt. `,
    changedByModel: 'vom Modell geändert',
    progress: (done, total) => `${done} von ${total} erledigt`,
    turn: (turn, maxTurns) => `Zug ${turn} von ${maxTurns}`,
    planning: 'Plant…',
    finished: 'Fertig',
    notStarted: 'Nicht gestartet',
    stopped: 'Angehalten',
    stoppedByError: 'Wegen eines Fehlers angehalten',
    unverified: 'Beendet, Schritte nicht erledigt',
    quote: (text) => `„${text}“`,
    say: {
      review: (steps, approveLabel) =>
        `Prüfe den Plan: ${steps} ${steps === 1 ? 'Schritt' : 'Schritte'}. Ändere sie, wenn du magst, dann wähle „${approveLabel}“.`,
      approved: 'Plan angenommen.',
      declined: 'Plan abgelehnt.',
      newPlan: (steps) => `Neuer Plan mit ${steps} ${steps === 1 ? 'Schritt' : 'Schritten'}.`,
      emptyPlan: 'Der Plan ist leer.',
      restored: (left, total) => `Plan wiederhergestellt: ${left} von ${total} Schritten offen.`,
      finished: (summary) => `Fertig.${summary ? ` ${summary}` : ''}`,
      notStarted: 'Der Plan wurde nicht gestartet.',
      stoppedBeforePlan: 'Angehalten, bevor ein neuer Plan stand.',
      noNewPlan: (message) => `Kein neuer Plan: ${message}`,
      stopped: 'Angehalten.',
      stoppedByError: (message) => `Angehalten: ${message}`,
      now: (text) => `Jetzt: ${text}.`,
      done: (text) => `Erledigt: ${text}.`,
      doneUnchecked: (text) => `Erledigt (ungeprüft): ${text}.`,
      held: (text) => `Noch nicht erledigt: ${text}. Kein Zeichen davon.`,
      stepDeclined: (text) => `Abgelehnt: ${text}.`,
      unverified: (steps) => `Beendet, Schritte nicht erledigt${steps.length ? `: ${steps.map((step) => `„${step}“`).join(', ')}` : ''}.`,
      moved: (text, step, steps) => `„${text}“ ist jetzt Schritt ${step} von ${steps}.`,
      emptyText: 'Ein Schritt braucht Text: Der alte Text bleibt.',
      changed: (text) => `Schritt geändert in „${text}“.`,
      notChanged: (message) => `Der Schritt wurde nicht geändert: ${message}`,
      removed: (text) => `„${text}“ entfernt. Rückgängig holt ihn zurück (Strg+Z).`,
      broughtBack: (text) => `„${text}“ ist wieder da.`,
      allowed: 'Erlaubt.',
      denied: 'Abgelehnt.',
    },
    approval: {
      actionHeading: 'Diese Aktion erlauben?',
      planChangeHeading: 'Das Modell hat einen Schritt geändert. Änderung behalten?',
      risk: { read: 'Liest nur die Seite', write: 'Ändert die Seite', irreversible: 'Lässt sich nicht rückgängig machen' },
      page: 'Seite',
      step: 'Für Schritt',
      purpose: 'Das Modell sagt',
      tool: 'Werkzeug',
      allow: 'Erlauben',
      deny: 'Ablehnen',
      deniedReason: 'Der Nutzer hat abgelehnt.',
      notAnnounced: (step, does) => `Nicht, was der Schritt angekündigt hat: ${step} sagt nicht, dass er ${does}.`,
      consequence: {
        delete: 'etwas löscht',
        pay: 'bezahlt',
        buy: 'etwas kauft',
        order: 'eine Bestellung aufgibt',
        send: 'etwas sendet',
        transfer: 'Geld überweist',
        subscribe: 'ein Abo abschließt',
        unsubscribe: 'ein Abo kündigt',
        'close-account': 'ein Konto schließt',
        'sign-out': 'abmeldet',
        leave: 'die Seite verlässt',
        'new-window': 'ein neues Fenster öffnet',
        download: 'eine Datei herunterlädt',
      },
    },
  },
  stop: 'Anhalten',
  resume: 'Tour fortsetzen',
  clear: 'Plan löschen',
  next: 'Weiter',
  answer: 'Antworten',
  askLabel: 'Frag den Guide',
  ask: 'Fragen',
  planning: 'Die Tour wird geplant…',
  resuming: (hint) => `Die Tour geht dort weiter, wo sie aufhörte… ${hint}`,
  stopHintKeys: 'Esc oder Anhalten beendet sie.',
  stopHintTouch: 'Anhalten beendet sie.',
  readyKeys: 'Der Plan steht: Leertaste oder „Tour starten“ legt los, Esc bricht ab.',
  readyTouch: 'Der Plan steht: Tippe auf „Tour starten“.',
  touring: (hint) => `Die Tour läuft… ${hint}`,
  loadingRecorded: 'Eine aufgezeichnete Tour wird geöffnet…',
  recordedTouring: (hint) => `Eine aufgezeichnete Tour läuft: ohne Modellaufruf, solange die Seite gleich ist. ${hint}`,
  cancelled: 'Tour abgebrochen. Frag jederzeit neu.',
  outOfTurns: 'Dem Guide gingen die Züge aus, bevor er fertig war.',
  unverified: 'Der Guide hat aufgehört: Einige Schritte waren auf der Seite nicht erledigt (der Plan markiert sie).',
  finished: (summary) => (summary ? `Tour beendet: ${summary}` : 'Tour beendet.'),
  stopped: 'Tour angehalten.',
  failed: (message) => `Die Tour ist fehlgeschlagen: ${message}`,
  couldNotPlan: (message) => `Keine Tour geplant: ${message}`,
  cleared: 'Plan gelöscht.',
  unfinished: 'Eine Tour ist unvollendet. Setze sie fort oder frag etwas anderes.',
};

const JA: GuideWords = {
  panel: {
    heading: 'ツアーの計画',
    approve: 'ツアーを始める',
    decline: 'キャンセル',
    empty: 'まだ計画はありません。',
    status: { pending: '未着手', in_progress: '進行中', completed: '完了' },
    evidence: { checked: '完了（確認済み）', unchecked: '完了（未確認）', held: '未完了：その形跡がありません', declined: '拒否済み' },
    hintKeys: '必要なら先に計画を変更できます。↑と↓でステップを選び、Tabでそのボタンへ。Enterで編集、Deleteで削除、Alt+↑とAlt+↓で移動します。',
    hintTouch: '必要なら先に計画を変更できます。ステップをタップすると編集・移動・削除できます。',
    editStep: (step) => `ステップ${step}を編集`,
    moveUp: (step) => `ステップ${step}を上へ`,
    moveDown: (step) => `ステップ${step}を下へ`,
    removeStep: (step) => `ステップ${step}を削除`,
    stepText: (step) => `ステップ${step}のテキスト`,
    undo: '元に戻す',
    removedLine: (text) => `「${text}」を削除しました。`,
    changedByModel: 'モデルが変更',
    progress: (done, total) => `${total}件中${done}件完了`,
    turn: (turn, maxTurns) => `ターン ${turn}/${maxTurns}`,
    planning: '計画中…',
    finished: '完了',
    notStarted: '未開始',
    stopped: '停止',
    stoppedByError: 'エラーで停止',
    unverified: '未完了の手順を残して終了',
    quote: (text) => `「${text}」`,
    say: {
      review: (steps, approveLabel) => `計画を確認してください: ${steps}ステップ。必要なら変更して、「${approveLabel}」を選んでください。`,
      approved: '計画を承認しました。',
      declined: '計画を取り消しました。',
      newPlan: (steps) => `${steps}ステップの新しい計画。`,
      emptyPlan: '計画は空です。',
      restored: (left, total) => `計画を復元しました: ${total}ステップ中${left}ステップが残っています。`,
      finished: (summary) => `完了しました。${summary ?? ''}`,
      notStarted: '計画は開始されませんでした。',
      stoppedBeforePlan: '新しい計画ができる前に停止しました。',
      noNewPlan: (message) => `新しい計画はありません: ${message}`,
      stopped: '停止しました。',
      stoppedByError: (message) => `停止しました: ${message}`,
      now: (text) => `現在: ${text}。`,
      done: (text) => `完了: ${text}。`,
      doneUnchecked: (text) => `完了（未確認）: ${text}。`,
      held: (text) => `未完了: ${text}。その形跡がありません。`,
      stepDeclined: (text) => `拒否済み: ${text}。`,
      unverified: (steps) => `未完了の手順を残して終了しました${steps.length ? `: ${steps.map((step) => `「${step}」`).join('、')}` : ''}。`,
      moved: (text, step, steps) => `「${text}」を${steps}ステップ中${step}番目に移動しました。`,
      emptyText: 'ステップにはテキストが必要です。元のテキストを残しました。',
      changed: (text) => `ステップを「${text}」に変更しました。`,
      notChanged: (message) => `ステップは変更されませんでした: ${message}`,
      removed: (text) => `「${text}」を削除しました。元に戻す（Ctrl+Z）で戻せます。`,
      broughtBack: (text) => `「${text}」を戻しました。`,
      allowed: '許可しました。',
      denied: '拒否しました。',
    },
    approval: {
      actionHeading: 'この操作を許可しますか？',
      planChangeHeading: 'モデルがステップを変更しました。変更を残しますか？',
      risk: { read: 'ページを読むだけ', write: 'ページを変更します', irreversible: '元に戻せません' },
      page: 'ページ',
      step: 'ステップ',
      purpose: 'モデルの説明',
      tool: 'ツール',
      allow: '許可',
      deny: '拒否',
      deniedReason: 'ユーザーが拒否しました。',
      notAnnounced: (step, does) => `ステップの予告と違います：${step}には「${does}」とは書かれていません。`,
      consequence: {
        delete: '削除する',
        pay: '支払う',
        buy: '購入する',
        order: '注文する',
        send: '送信する',
        transfer: '送金する',
        subscribe: '購読を申し込む',
        unsubscribe: '購読を解約する',
        'close-account': 'アカウントを閉じる',
        'sign-out': 'ログアウトする',
        leave: 'サイトを離れる',
        'new-window': '新しいウィンドウを開く',
        download: 'ファイルをダウンロードする',
      },
    },
  },
  stop: '停止',
  resume: 'ツアーを続ける',
  clear: '計画を消去',
  next: '次へ',
  answer: '回答',
  askLabel: 'ガイドに質問',
  ask: '質問',
  planning: 'ツアーを計画しています…',
  resuming: (hint) => `止まったところからツアーを再開します… ${hint}`,
  stopHintKeys: 'Escか停止で終了します。',
  stopHintTouch: '停止で終了します。',
  readyKeys: '計画ができました。スペースキーか「ツアーを始める」で開始、Escでキャンセルします。',
  readyTouch: '計画ができました。「ツアーを始める」をタップしてください。',
  touring: (hint) => `ツアー中… ${hint}`,
  loadingRecorded: '録画済みのツアーを開いています…',
  recordedTouring: (hint) => `録画済みのツアーを再生中: ページが変わらない限りモデルは呼びません。${hint}`,
  cancelled: 'ツアーをキャンセルしました。いつでもまた聞いてください。',
  outOfTurns: 'ガイドは終わる前にターンを使い切りました。',
  unverified: 'ガイドは停止しました：ページ上で完了が確認できない手順があります（プランに表示されています）。',
  finished: (summary) => (summary ? `ツアー終了: ${summary}` : 'ツアー終了。'),
  stopped: 'ツアーを停止しました。',
  failed: (message) => `ツアーに失敗しました: ${message}`,
  couldNotPlan: (message) => `ツアーを計画できませんでした: ${message}`,
  cleared: '計画を消去しました。',
  unfinished: '終わっていないツアーがあります。続けるか、別のことを聞いてください。',
};

/**
 * The guide's words by language.
 *
 * @example
 * ```ts
 * GUIDE_WORDS.de.panel.approve; // 'Tour starten'
 * ```
 */
export const GUIDE_WORDS: Record<Lang, GuideWords> = { en: EN, de: DE, ja: JA };

/**
 * The guide's language for a BCP-47 `locale` (`de-DE` is German), or `undefined` when it has no
 * words in it (then it speaks English).
 *
 * @example
 * ```ts
 * guideLanguage('de-DE'); // 'de'
 * guideLanguage('fr');    // undefined
 * ```
 */
export function guideLanguage(locale: string): Lang | undefined {
  const primary = locale.toLowerCase().split(/[-_]/)[0] ?? '';
  return Object.hasOwn(GUIDE_WORDS, primary) ? (primary as Lang) : undefined;
}
