// What the offline stand-in model says, in each language it speaks: the words of its tours (see
// tours.ts), its honest answers when the site has nothing on an ask, and the words it knows the
// site covers. A real model writes these itself in the planner's `Locale:`; the stand-in keeps a
// small table, so that a German or Japanese ask is never answered in English.

import type { Lang } from '../language.js';

/** The texts of one tour step: the todo's description and what the guide says while doing it. */
interface StepWords {
  description: string;
  say?: string;
}

/** Everything the offline model says in one language. */
export interface Phrases {
  /** The todo that opens a page. */
  open: (title: string, path: string) => string;
  /** A phrase quoted the language's way. */
  quote: (text: string) => string;
  /** "a" or "a or b", for the words the site says nothing about. */
  or: string;
  /** The site's pages: a title and what each shows. */
  pages: Record<string, { title: string; about: string }>;
  pricing: { summary: string; starter: StepWords; team: StepWords; business: StepWords; wrap: StepWords; finished: string };
  trial: { summary: string; form: StepWords; plan: StepWords; submit: StepWords; wrap: StepWords; finished: string };
  compareAndTrial: {
    summary: string;
    compare: StepWords;
    recommend: StepWords;
    openForm: StepWords;
    fillName: StepWords;
    choosePlan: StepWords;
    submit: StepWords;
    wrap: StepWords;
    finished: string;
  };
  docs: { summary: string; quickstart: StepWords; api: StepWords; wrap: StepWords; finished: string };
  page: {
    summary: (title: string) => string;
    explain: (title: string) => string;
    covers: (about: string) => string;
    wrap: StepWords;
    finished: (title: string) => string;
  };
  /** When the site has nothing on (part of) the ask: `missing` is the quoted words. */
  honest: {
    /** Said before a tour that covers the rest of the ask. */
    lacks: (missing: string) => string;
    /** Said after such a tour ends. */
    lacked: (missing: string) => string;
    nothingSummary: (missing: string) => string;
    nothing: (missing: string) => StepWords;
    offer: StepWords;
    nothingFinished: (missing: string) => string;
  };
  /** A todo planned by someone else that the stand-in finishes without knowing the tour. */
  endOfTour: string;
  finishedTour: string;
  /** Words that carry no topic of their own ("show me how to …"), lower-case. */
  stopWords: ReadonlySet<string>;
  /** Words for what the site covers that the texts above do not use ("cost" for the prices). */
  alsoCovers: string;
}

const set = (words: string): ReadonlySet<string> => new Set(words.split(/\s+/).filter(Boolean));

/**
 * The offline model's words, by language.
 *
 * @example
 * ```ts
 * PHRASES.de.pricing.summary; // 'Ich bringe dich zur Preisseite und stelle dir die drei Tarife vor.'
 * ```
 */
export const PHRASES: Record<Lang, Phrases> = {
  en: {
    open: (title, path) => `Open the ${title} page (${path})`,
    quote: (text) => `“${text}”`,
    or: ' or ',
    pages: {
      '/': { title: 'Home', about: 'what Orbitly is and its three main features: fair rotations, focus blocks and calendar sync' },
      '/commercial': {
        title: 'Pricing',
        about: 'the Starter, Team and Business plans (focus blocks, rotation swaps, SSO and an audit log) and a comparison table',
      },
      '/try': { title: 'Try it', about: 'the free-trial form' },
      '/docs': { title: 'Docs', about: 'a quick start and the API reference' },
    },
    pricing: {
      summary: 'I will take you to the pricing page and introduce its three plans.',
      starter: {
        description: 'Introduce the free Starter plan',
        say: 'Starter is free forever for up to five people: one shared calendar and basic rotations.',
      },
      team: { description: 'Show the Team plan, the most popular', say: 'Team is the most popular: $12 per member, with focus blocks and rotation swaps.' },
      business: { description: 'Show what Business adds', say: 'Business adds SSO, an audit log and priority support, for $29 per member.' },
      wrap: { description: 'Wrap up', say: 'Those are the three plans. The table below compares them feature by feature.' },
      finished: 'Introduced the pricing page.',
    },
    trial: {
      summary: 'I will show you the trial form and how to start a free trial.',
      form: { description: 'Walk through the trial form', say: 'This is the whole sign-up: your name, a work email and a plan. No card needed.' },
      plan: { description: 'Point out the plan choice', say: 'Pick the plan to try here. Team is preselected; you can switch at any time.' },
      submit: { description: 'Show where to start the trial', say: 'When you are ready, this button starts your 14 days.' },
      wrap: { description: 'Wrap up', say: 'That is how to try Orbitly. Fill it in whenever you like.' },
      finished: 'Showed how to start a trial.',
    },
    compareAndTrial: {
      summary: 'I will compare the three plans with you, then start a Team trial on the trial form.',
      compare: {
        description: 'Compare the plans side by side',
        say: 'This table lines the three plans up: Starter is free for up to five people, Team adds focus blocks and swaps, Business adds SSO and an audit log.',
      },
      recommend: { description: 'Recommend the Team plan', say: 'For most small teams, Team is the sweet spot. It is also the one with a 14-day trial.' },
      openForm: { description: 'Open the trial form from the Team plan' },
      fillName: { description: 'Fill in a name and a work email' },
      choosePlan: { description: 'Choose the Team plan' },
      submit: { description: 'Submit the form to start the trial', say: 'Done: the trial is set up. The confirmation is right here.' },
      wrap: { description: 'Wrap up', say: 'That is it: you compared the plans and started a Team trial.' },
      finished: 'Compared the plans and started a Team trial.',
    },
    docs: {
      summary: 'I will show you the docs: the quick start, then the API.',
      quickstart: { description: 'Go through the quick start', say: 'Four steps get a team going: a workspace, invites, calendars and a first rotation.' },
      api: { description: 'Introduce the API', say: 'The REST API and its webhooks cover every schedule change.' },
      wrap: { description: 'Wrap up', say: 'That is the documentation in a nutshell.' },
      finished: 'Showed the docs.',
    },
    page: {
      summary: (title) => `I will show you the ${title} page.`,
      explain: (title) => `Explain what the ${title} page offers`,
      covers: (about) => `This page covers ${about}.`,
      wrap: {
        description: 'Wrap up',
        say: 'I am a small offline stand-in, so that is as far as I can take this one. Try one of the suggestions for a fuller tour.',
      },
      finished: (title) => `Showed the ${title} page.`,
    },
    honest: {
      lacks: (missing) => `This site says nothing about ${missing}.`,
      lacked: (missing) => `The site says nothing about ${missing}.`,
      nothingSummary: (missing) =>
        `This site says nothing about ${missing}. I can show you what it does cover: the plans and prices, how to try Orbitly, and the docs.`,
      nothing: (missing) => ({
        description: `Say that the site has nothing about ${missing}`,
        say: `I looked through the site: nothing on it is about ${missing}, so I cannot show you that.`,
      }),
      offer: {
        description: 'Offer what I can show instead',
        say: 'What I can show you: the plans and prices, how to start a free trial, and the docs. Ask for any of them.',
      },
      nothingFinished: (missing) => `Found nothing about ${missing} on this site; offered the pricing, trial and docs tours instead.`,
    },
    alsoCovers: 'cost costs price prices cheap expensive signup register account setup',
    endOfTour: 'That is the end of the tour.',
    finishedTour: 'Finished the tour.',
    stopWords: set(`a an the and or but of to in on at for from with by about into as is are was be been do does did can could would should will
      i me my mine we us our you your it its this that these those there here what which who whom whose how why where when
      please show tell give take walk guide lead explain introduce present describe see look find get know want need like let let's
      around over through just also some any all more most much many very really page pages site website tour thing things something
      include includes included contain contains have has had offer offers work works use uses using make makes go come say says mean means happen
      hi hello hey thanks thank yes no not`),
  },
  de: {
    open: (title, path) => `Die Seite „${title}“ öffnen (${path})`,
    quote: (text) => `„${text}“`,
    or: ' oder ',
    pages: {
      '/': { title: 'Startseite', about: 'was Orbitly ist und seine drei wichtigsten Funktionen: faire Rotationen, Fokuszeiten und Kalender-Sync' },
      '/commercial': {
        title: 'Preise',
        about: 'die Tarife Starter, Team und Business (Fokuszeiten, Schichttausch, SSO und ein Audit-Log) und eine Vergleichstabelle',
      },
      '/try': { title: 'Ausprobieren', about: 'das Formular für die kostenlose Testphase' },
      '/docs': { title: 'Doku', about: 'einen Schnellstart und die API-Referenz' },
    },
    pricing: {
      summary: 'Ich bringe dich zur Preisseite und stelle dir die drei Tarife vor.',
      starter: {
        description: 'Den kostenlosen Starter-Tarif vorstellen',
        say: 'Starter ist für bis zu fünf Personen dauerhaft kostenlos: ein gemeinsamer Kalender und einfache Rotationen.',
      },
      team: { description: 'Den Team-Tarif zeigen, den beliebtesten', say: 'Team ist am beliebtesten: 12 $ pro Mitglied, mit Fokuszeiten und Schichttausch.' },
      business: {
        description: 'Zeigen, was Business dazu bietet',
        say: 'Business bietet zusätzlich SSO, ein Audit-Log und bevorzugten Support, für 29 $ pro Mitglied.',
      },
      wrap: { description: 'Abschluss', say: 'Das sind die drei Tarife. Die Tabelle darunter vergleicht sie Funktion für Funktion.' },
      finished: 'Die Preisseite vorgestellt.',
    },
    trial: {
      summary: 'Ich zeige dir das Testformular und wie du eine kostenlose Testphase startest.',
      form: {
        description: 'Das Testformular durchgehen',
        say: 'Das ist die ganze Anmeldung: dein Name, eine geschäftliche E-Mail-Adresse und ein Tarif. Keine Kreditkarte nötig.',
      },
      plan: { description: 'Auf die Tarifwahl hinweisen', say: 'Hier wählst du den Tarif zum Testen. Team ist vorausgewählt; du kannst jederzeit wechseln.' },
      submit: { description: 'Zeigen, wo die Testphase startet', say: 'Wenn du so weit bist, startet dieser Knopf deine 14 Tage.' },
      wrap: { description: 'Abschluss', say: 'So probierst du Orbitly aus. Füll das Formular aus, wann immer du magst.' },
      finished: 'Gezeigt, wie man eine Testphase startet.',
    },
    compareAndTrial: {
      summary: 'Ich vergleiche mit dir die drei Tarife und starte dann im Testformular eine Team-Testphase.',
      compare: {
        description: 'Die Tarife nebeneinander vergleichen',
        say: 'Diese Tabelle stellt die drei Tarife nebeneinander: Starter ist für bis zu fünf Personen kostenlos, Team bringt Fokuszeiten und Schichttausch, Business dazu SSO und ein Audit-Log.',
      },
      recommend: {
        description: 'Den Team-Tarif empfehlen',
        say: 'Für die meisten kleinen Teams ist Team genau richtig. Dafür gibt es auch die 14-tägige Testphase.',
      },
      openForm: { description: 'Das Testformular über den Team-Tarif öffnen' },
      fillName: { description: 'Einen Namen und eine geschäftliche E-Mail eintragen' },
      choosePlan: { description: 'Den Team-Tarif wählen' },
      submit: {
        description: 'Das Formular absenden und die Testphase starten',
        say: 'Fertig: Die Testphase ist eingerichtet. Die Bestätigung steht genau hier.',
      },
      wrap: { description: 'Abschluss', say: 'Das war’s: Du hast die Tarife verglichen und eine Team-Testphase gestartet.' },
      finished: 'Die Tarife verglichen und eine Team-Testphase gestartet.',
    },
    docs: {
      summary: 'Ich zeige dir die Dokumentation: erst den Schnellstart, dann die API.',
      quickstart: {
        description: 'Den Schnellstart durchgehen',
        say: 'Vier Schritte, und das Team legt los: ein Workspace, Einladungen, Kalender und eine erste Rotation.',
      },
      api: { description: 'Die API vorstellen', say: 'Die REST-API und ihre Webhooks decken jede Änderung am Dienstplan ab.' },
      wrap: { description: 'Abschluss', say: 'Das ist die Dokumentation in aller Kürze.' },
      finished: 'Die Dokumentation gezeigt.',
    },
    page: {
      summary: (title) => `Ich zeige dir die Seite „${title}“.`,
      explain: (title) => `Erklären, was die Seite „${title}“ bietet`,
      covers: (about) => `Diese Seite zeigt ${about}.`,
      wrap: {
        description: 'Abschluss',
        say: 'Ich bin nur ein kleiner Offline-Ersatz, weiter komme ich hier nicht. Probier einen der Vorschläge für eine ausführlichere Tour.',
      },
      finished: (title) => `Die Seite „${title}“ gezeigt.`,
    },
    honest: {
      lacks: (missing) => `Zu ${missing} steht auf dieser Website nichts.`,
      lacked: (missing) => `Zu ${missing} steht dort nichts.`,
      nothingSummary: (missing) =>
        `Zu ${missing} steht auf dieser Website nichts. Ich kann dir zeigen, was es hier gibt: die Tarife und Preise, wie man Orbitly ausprobiert, und die Doku.`,
      nothing: (missing) => ({
        description: `Sagen, dass die Website nichts zu ${missing} enthält`,
        say: `Ich habe die Website durchgesehen: Nichts darauf handelt von ${missing}, das kann ich dir also nicht zeigen.`,
      }),
      offer: {
        description: 'Anbieten, was ich stattdessen zeigen kann',
        say: 'Was ich dir zeigen kann: die Tarife und Preise, wie du eine kostenlose Testphase startest, und die Doku. Frag einfach danach.',
      },
      nothingFinished: (missing) => `Nichts zu ${missing} auf dieser Website gefunden; stattdessen Preise, Testphase und Doku angeboten.`,
    },
    alsoCovers: 'kosten kostet preis teuer günstig registrieren konto einrichten',
    endOfTour: 'Das ist das Ende der Tour.',
    finishedTour: 'Die Tour ist beendet.',
    stopWords:
      set(`der die das den dem des ein eine einen einem einer eines und oder aber von zu zum zur in im an am auf für aus mit bei über um als ist sind war sein
      ich mich mir mein meine wir uns unser du dich dir dein deine ihr euch sie es er man
      was welche welcher welches wer wie warum wo wann wohin woher
      bitte zeig zeige zeigen zeigst sag sage sagen erkläre erklären erklär stell stelle vor vorstellen führ führe gib geben
      gibt kann kannst können möchte möchten will willst wollen brauche brauchen finde finden sehen schau schauen bekomme bekommen kriege
      enthält enthalten bietet bieten hat haben funktioniert funktionieren nutzen benutzen geht gehen machen heißt
      hier da dort doch mal noch auch nur etwas alles mehr sehr seite seiten website tour hallo hi danke ja nein nicht kein keine`),
  },
  ja: {
    open: (title, path) => `「${title}」ページを開く (${path})`,
    quote: (text) => `「${text}」`,
    or: 'や',
    pages: {
      '/': { title: 'ホーム', about: 'Orbitlyの概要と3つの主な機能(公平なローテーション、フォーカスブロック、カレンダー同期)' },
      '/commercial': { title: '料金', about: 'Starter・Team・Businessの3プラン(フォーカスブロック、ローテーションの交換、SSO、監査ログ)と比較表' },
      '/try': { title: '試してみる', about: '無料トライアルのフォーム' },
      '/docs': { title: 'ドキュメント', about: 'クイックスタートとAPIリファレンス' },
    },
    pricing: {
      summary: '料金ページにご案内して、3つのプランをご紹介します。',
      starter: { description: '無料のStarterプランを紹介する', say: 'Starterは5人まで永久無料。共有カレンダー1つと基本的なローテーションが使えます。' },
      team: {
        description: '一番人気のTeamプランを見せる',
        say: 'Teamが一番人気です。1メンバーあたり12ドルで、フォーカスブロックとローテーションの交換が使えます。',
      },
      business: { description: 'Businessで増える機能を見せる', say: 'BusinessではSSO、監査ログ、優先サポートが加わります。1メンバーあたり29ドルです。' },
      wrap: { description: 'まとめ', say: '以上が3つのプランです。下の表で機能ごとに比較できます。' },
      finished: '料金ページをご紹介しました。',
    },
    trial: {
      summary: 'トライアルのフォームと、無料トライアルの始め方をご案内します。',
      form: {
        description: 'トライアルのフォームを順に見る',
        say: '登録はこれだけです。お名前、仕事用のメールアドレス、プランを入力します。カードは不要です。',
      },
      plan: { description: 'プランの選択欄を示す', say: 'ここで試すプランを選びます。Teamが選択済みで、いつでも変更できます。' },
      submit: { description: 'トライアルを始めるボタンを示す', say: '準備ができたら、このボタンで14日間のトライアルが始まります。' },
      wrap: { description: 'まとめ', say: 'Orbitlyの試し方は以上です。いつでもご記入ください。' },
      finished: 'トライアルの始め方をご案内しました。',
    },
    compareAndTrial: {
      summary: '3つのプランを一緒に比べてから、トライアルのフォームでTeamプランのトライアルを始めます。',
      compare: {
        description: 'プランを並べて比べる',
        say: 'この表で3つのプランを比べられます。Starterは5人まで無料、Teamはフォーカスブロックと交換機能つき、BusinessはさらにSSOと監査ログが加わります。',
      },
      recommend: { description: 'Teamプランをおすすめする', say: '小さなチームの多くにはTeamがぴったりです。14日間のトライアルもこのプランで試せます。' },
      openForm: { description: 'Teamプランからトライアルのフォームを開く' },
      fillName: { description: '名前と仕事用メールアドレスを入力する' },
      choosePlan: { description: 'Teamプランを選ぶ' },
      submit: { description: 'フォームを送信してトライアルを始める', say: '完了です。トライアルの準備ができました。確認メッセージはここです。' },
      wrap: { description: 'まとめ', say: 'これで完了です。プランを比べて、Teamのトライアルを始めました。' },
      finished: 'プランを比較し、Teamのトライアルを始めました。',
    },
    docs: {
      summary: 'ドキュメントをご案内します。まずクイックスタート、次にAPIです。',
      quickstart: {
        description: 'クイックスタートを見る',
        say: '4つのステップでチームが使い始められます。ワークスペース、招待、カレンダー、最初のローテーションです。',
      },
      api: { description: 'APIを紹介する', say: 'REST APIとWebhookで、スケジュールのあらゆる変更に対応できます。' },
      wrap: { description: 'まとめ', say: 'ドキュメントの概要は以上です。' },
      finished: 'ドキュメントをご案内しました。',
    },
    page: {
      summary: (title) => `「${title}」ページをご案内します。`,
      explain: (title) => `「${title}」ページの内容を説明する`,
      covers: (about) => `このページでは${about}を紹介しています。`,
      wrap: { description: 'まとめ', say: '私は小さなオフラインの代役なので、ご案内できるのはここまでです。より詳しいツアーは候補のどれかをお試しください。' },
      finished: (title) => `「${title}」ページをご案内しました。`,
    },
    honest: {
      lacks: (missing) => `このサイトには${missing}についての情報がありません。`,
      lacked: (missing) => `${missing}についての記載はありません。`,
      nothingSummary: (missing) => `このサイトには${missing}についての情報がありません。ご案内できるのは、料金とプラン、Orbitlyの試し方、ドキュメントです。`,
      nothing: (missing) => ({
        description: `サイトに${missing}の情報がないことを伝える`,
        say: `サイトを確認しましたが、${missing}についてのページはないため、ご案内できません。`,
      }),
      offer: {
        description: '代わりにご案内できることを伝える',
        say: 'ご案内できるのは、料金とプラン、無料トライアルの始め方、ドキュメントです。どれでもお気軽にどうぞ。',
      },
      nothingFinished: (missing) => `${missing}の情報はサイトにありませんでした。代わりに料金、トライアル、ドキュメントのご案内を提案しました。`,
    },
    alsoCovers: '値段 費用 価格 いくら 登録 アカウント 設定',
    endOfTour: 'ツアーは以上です。',
    finishedTour: 'ツアーを終えました。',
    // Kana-only segments (particles, endings) never carry the topic: see `topicWords` in tours.ts.
    stopWords: set(`方法 教え 見 見せ 紹介 案内 説明 知り 始め 使い 何 誰 どこ 時 ページ サイト ツアー お願い 下さい 今日 私 自分`),
  },
};

/**
 * Said (in English) before a plan for an ask in a language the offline model does not speak.
 *
 * @example
 * ```ts
 * unspokenLanguage('French'); // 'I speak only English, German and Japanese offline, …'
 * ```
 */
export function unspokenLanguage(name: string): string {
  return `I speak only English, German and Japanese offline, so here it is in English (connect a real model in Settings for ${name}):`;
}

/**
 * The language of the offline model's phrases for a BCP-47 `locale`: `undefined` for one it does
 * not speak.
 *
 * @example
 * ```ts
 * spokenLanguage('de-DE'); // 'de'
 * ```
 */
export function spokenLanguage(locale: string): Lang | undefined {
  const primary = locale.toLowerCase().split(/[-_]/)[0] ?? '';
  return primary in PHRASES ? (primary as Lang) : undefined;
}
