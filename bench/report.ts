import { LEAK_MARKERS, kb, SIZE_BUDGETS, type BundleSize } from './bundle-size.js';
import { domCorpusTargets, renderDomCorpus, type DomCorpusResult } from './dom-corpus.js';
import type { DomOutlineResult, DomOutlineTiming } from './dom-outline.js';
import type { FirstActionResult } from './first-action.js';
import { firstViewTargets, renderFirstView, type FirstViewResult } from './first-view.js';
import { EDIT_CONSTANT_TOKENS, type MarkdownEditResult } from './markdown-edit.js';
import type { OverheadResult } from './overhead.js';
import type { ReplayBenchResult } from './replay.js';
import type { StorageBenchResult } from './storage.js';
import type { TokensResult } from './tokens.js';

/** Everything `npm run bench` measured, as written to `bench/results.json`. */
export interface BenchResults {
  generatedAt: string;
  environment: { node: string; platform: string; cpu: string; cpus: number };
  /**
   * Set when only some parts ran (`npm run bench -- tokens`): the parts kept from earlier runs,
   * `from` the earliest of those runs, `runs` the run each part comes from (by part name).
   */
  reused?: { from: string; parts: string[]; runs?: Record<string, string> };
  /** Plan tokens, no failed turns (the headline). */
  tokens: TokensResult;
  /** The same with one failed and resent turn in ten on both sides. */
  tokensWithFailures: TokensResult;
  bundle: { sizes: BundleSize[] };
  overhead: OverheadResult;
  firstAction: FirstActionResult;
  markdownEdit: MarkdownEditResult;
  domOutline: DomOutlineResult;
  /** Real saved pages, today's outline beside the previous one (absent in runs that skip it). */
  domCorpus?: DomCorpusResult | undefined;
  /** The outline at its default budget against what a person sees first, on both corpora (absent in runs before it). */
  firstView?: FirstViewResult | undefined;
  storage: StorageBenchResult;
  /** A recorded tour against its live run, and steps found again after markup changes (absent in results before it existed). */
  replay?: ReplayBenchResult | undefined;
  targets: TargetCheck[];
}

/** One target of issue 7, with the measured figure and whether it was met. */
export interface TargetCheck {
  target: string;
  goal: string;
  figure: string;
  met: boolean;
}

/**
 * Checks the measurements against the issue's targets.
 *
 * @example
 * ```ts
 * checkTargets({ tokens, bundle, overhead, firstAction }).filter((check) => !check.met);
 * ```
 */
export function checkTargets(results: Omit<BenchResults, 'targets' | 'generatedAt' | 'environment' | 'reused'>): TargetCheck[] {
  const checks: TargetCheck[] = [];
  const scenarios = results.tokens.scenarios;
  const failing = results.tokensWithFailures.scenarios;
  checks.push({
    target: 'plan-upkeep output, default (compact) envelope, no failed turns',
    goal: '≥ 15× fewer tokens than write_todos on every scenario (tour / form / replan / todos over 2 turns)',
    figure:
      `${scenarios.map((scenario) => `${scenario.ratios.compact}×`).join(' / ')} (floor ${scenarios.map((scenario) => `${scenario.ratios.floor}×`).join(' / ')})` +
      (failing.length > 0
        ? `; one failed turn in ${results.tokensWithFailures.failEvery}: ${failing.map((scenario) => `${scenario.ratios.compact}×`).join(' / ')}`
        : ''),
    met: scenarios.length > 0 && scenarios.every((scenario) => (scenario.ratios.compact ?? 0) >= 15),
  });
  const tour = scenarios.find((scenario) => scenario.key === 'tour');
  if (tour) {
    const kinds = tour.planloopInput.filter((row) => row.backend !== 'schema in prompt');
    const shown = tour.planloopInput.find((row) => row.backend === 'schema in prompt');
    const fencing = tour.fencing.tags + tour.fencing.rule;
    checks.push({
      target: `plan context per turn, all in (instructions, turn line, todos, memory, fences, labels; not the task's words, URL or page text), ${tour.scenario}, every backend kind`,
      goal: '≤ 250 tokens',
      figure:
        kinds.map((row) => `${row.perTurnMax} (${row.backend})`).join(', ') +
        ` at turn ${tour.planContext.largestTurn}, of which ${fencing} for the data fencing` +
        (shown ? `; ${shown.perTurnMax} on a hosted API that renders the schema into the prompt, if it bills it (not documented)` : ''),
      met: kinds.length > 0 && kinds.every((row) => row.perTurnMax <= 250),
    });
  }
  const planning = scenarios.filter((scenario) => scenario.planningOutput);
  if (planning.length > 0) {
    checks.push({
      target: 'planning call output with the checks a planner may write (one on every navigate and click todo), against none',
      goal: '≤ 15% more tokens on every scenario',
      figure: planning
        .map(
          (scenario) =>
            `${scenario.key} ${scenario.planningOutput?.without} → ${scenario.planningOutput?.withChecks} (+${Math.round((scenario.planningOutput?.growth ?? 0) * 100)}%)`,
        )
        .join(' / '),
      met: planning.every((scenario) => (scenario.planningOutput?.growth ?? 0) <= 0.15),
    });
  }
  for (const [name, budget] of Object.entries(SIZE_BUDGETS)) {
    const rows = results.bundle.sizes.filter((size) => size.name === name);
    if (rows.length === 0) continue;
    checks.push({
      target: `${name === 'core' ? 'core (`Plan` + `parseTurnEnvelope`)' : name}, loaded at start (entry + static chunks), gzipped, with Vite (rolldown) and esbuild`,
      goal: `≤ ${kb(budget)} KB`,
      figure: rows
        .map((size) => `${kb(size.gzip)} KB with ${size.bundler} (${size.startChunks} chunks; ${kb(size.totalGzip)} KB with everything loaded on first use)`)
        .join('; '),
      met: rows.every((size) => size.gzip <= budget),
    });
  }
  const planOnly = results.bundle.sizes.find((size) => size.name === 'Plan only' && size.bundler === 'esbuild');
  if (planOnly) {
    checks.push({
      target: 'tree-shaking: `import { Plan }` has no provider, storage or UI code',
      goal: 'none found',
      figure: planOnly.leaks.length === 0 ? 'none found' : `found: ${planOnly.leaks.join(', ')}`,
      met: planOnly.leaks.length === 0,
    });
  }
  const at100 = results.overhead.turns.find((row) => row.todos === 100);
  if (at100) {
    checks.push({
      target: 'per-turn overhead, 100 todos',
      goal: '< 1 ms',
      figure: `${at100.total} ms (median sum of parse, validate, adjust, render, save)`,
      met: at100.total < 1,
    });
  }
  const todoSaves = results.storage.rows.filter((row) => row.change === 'a todo');
  if (todoSaves.length > 0) {
    checks.push({
      target: `save after a todo change, with a ${n(results.storage.docChars)}-character document`,
      goal: '≥ 5× less than writing the whole snapshot',
      figure: todoSaves.map((row) => `${row.adapter} ${ms(row.parts)} ms (whole snapshot ${ms(row.whole)} ms, ${row.speedup ?? '-'}×)`).join('; '),
      met: todoSaves.every((row) => (row.speedup ?? 0) >= 5),
    });
  }
  const first = results.firstAction;
  checks.push({
    target: 'first visible action (first narrated words or first tool call)',
    goal: '≤ 40% of the full response time',
    figure: first.timings
      .map((timing) => `${Math.round(timing.ratio * 100)}% via ${timing.via} (${timing.firstActionMs} of ${timing.completeMs} ms)`)
      .join('; '),
    met: first.ratio <= 0.4,
  });
  const edit = results.markdownEdit;
  const asked = edit.answers.find((answer) => answer.answer === 'edits (elided SEARCH)');
  const whole = edit.answers.find((answer) => answer.answer === 'edits (whole paragraph as SEARCH)');
  const rewrite = edit.answers.find((answer) => answer.answer === 'rewrite (document markers)');
  if (asked && whole && rewrite) {
    const limit = Math.floor(1.5 * edit.changed.after + EDIT_CONSTANT_TOKENS);
    checks.push({
      target: `markdown edit output, ${Math.round(edit.documentChars / 1000)} KB document, one-paragraph change`,
      goal: `≤ 1.5× the changed paragraph (${edit.changed.after} tokens) + ${EDIT_CONSTANT_TOKENS} = ${limit} tokens`,
      figure: `${asked.outputTokens} tokens with an elided SEARCH (${whole.outputTokens} with the whole paragraph as SEARCH), against ${rewrite.outputTokens.toLocaleString('en')} for the rewrite`,
      met: asked.outputTokens <= limit,
    });
  }
  checks.push(...domOutlineTargets(results.domOutline));
  if (results.domCorpus) checks.push(...domCorpusTargets(results.domCorpus));
  if (results.firstView) checks.push(...firstViewTargets(results.firstView));
  return checks;
}

/** Issue 13's targets for `planloop/dom`: time on a 2,000-element page, and tokens at the default budget. */
function domOutlineTargets(dom: DomOutlineResult): TargetCheck[] {
  const page = dom.sizes.find((timing) => timing.elements >= 2000 && timing.elements < 2100);
  if (dom.skipped || !page) {
    const figure = `not measured (${dom.skipped ?? 'no 2,000-element page in this run'})`;
    return [
      { target: 'page outline, 2,000-element page, Chromium', goal: '≤ 10 ms', figure, met: false },
      { target: 'page outline at the default budget, o200k tokens', goal: '≤ 400 tokens', figure, met: false },
    ];
  }
  const largest = [...dom.sizes, ...dom.demo].reduce((a, b) => (b.tokens > a.tokens ? b : a));
  return [
    {
      target: 'page outline, 2,000-element page, Chromium',
      goal: '≤ 10 ms',
      figure: `${page.medianMs} ms median, ${page.minMs} ms fastest, ${page.p90Ms} ms p90 (${page.elements.toLocaleString('en')} elements, ${page.listable.toLocaleString('en')} listable, ${page.listed} listed)`,
      met: page.medianMs <= 10,
    },
    {
      target: 'page outline at the default budget, o200k tokens',
      goal: '≤ 400 tokens',
      figure: `${largest.tokens} at most (${largest.page}; estimated ${largest.estimatedTokens})`,
      met: largest.tokens <= 400,
    },
  ];
}

const row = (cells: Array<string | number>) => `| ${cells.join(' | ')} |`;
const head = (cells: string[]) => [row(cells), row(cells.map(() => '---'))];
const ms = (value: number) => (value < 0.01 ? value.toFixed(4) : value < 1 ? value.toFixed(3) : value.toFixed(1));
const n = (value: number) => value.toLocaleString('en');

/**
 * The Markdown the README quotes: targets first, then each benchmark's table and how it was measured.
 *
 * @example
 * ```ts
 * await writeFile('bench/results.md', renderMarkdown(results));
 * ```
 */
/** `the figures of tokens, storage are from the run of 2026-11-24; …`, one clause per run. */
function reusedRuns(reused: NonNullable<BenchResults['reused']>): string {
  const byRun = new Map<string, string[]>();
  for (const part of reused.parts) {
    const run = (reused.runs?.[part] ?? reused.from).slice(0, 10);
    byRun.set(run, [...(byRun.get(run) ?? []), part]);
  }
  return [...byRun].map(([run, parts]) => `the figures of ${parts.join(', ')} are from the run of ${run}`).join('; ');
}

export function renderMarkdown(results: BenchResults): string {
  const { tokens, tokensWithFailures, bundle, overhead, firstAction, markdownEdit, domOutline, storage, environment } = results;
  const lines: string[] = [
    '# planloop benchmarks',
    '',
    `Generated by \`npm run bench\` on ${results.generatedAt.slice(0, 10)} (Node ${environment.node}, ${environment.platform}, ${environment.cpus} × ${environment.cpu}). Figures are measurements, not pass/fail tests.` +
      (results.reused ? ` Not every part ran this time (\`npm run bench -- <part>\`): ${reusedRuns(results.reused)}.` : ''),
    '',
    '## Targets',
    '',
    ...head(['target', 'goal', 'measured', 'met']),
    ...results.targets.map((check) => row([check.target, check.goal, check.figure, check.met ? 'met' : '**missed**'])),
    '',
    '## Tokens',
    '',
    ...tokensSection(tokens, tokensWithFailures),
  ];
  lines.push(
    '## Bundle size',
    '',
    'The library is built as published (`vite build`, `dist/`), then each entry is bundled against it as an app would be, by Vite (rolldown) and by esbuild, with every dependency bundled in, minified, chunks split; gzip level 9, brotli quality 11, each chunk compressed on its own (as a server sends it); 1 KB = 1,000 bytes. *At start* is what a page loads before its first line runs: the entry chunk and every chunk it imports statically, transitively; *all chunks* adds what loads on first use (storage and the run lease on the first `hydrate`/`acquireRun`, cross-tab sync when a syncing plan hydrates, the planner on the first `makeTodos`, the editor on the first `editWithInstruction`).',
    '',
    ...head([
      'entry',
      'imports',
      'bundler',
      'minified, at start',
      'gzip, at start',
      'chunks at start',
      'gzip, entry chunk alone',
      'brotli, at start',
      'gzip, all chunks',
    ]),
    ...bundle.sizes.map((size) =>
      row([
        size.name,
        size.note,
        size.bundler,
        `${kb(size.minified)} KB`,
        `${kb(size.gzip)} KB`,
        String(size.startChunks ?? 1),
        `${kb(size.entryGzip ?? size.gzip)} KB`,
        `${kb(size.brotli)} KB`,
        `${kb(size.totalGzip)} KB`,
      ]),
    ),
    '',
  );
  const leaks = bundle.sizes.filter((size) => size.leaks.length > 0);
  lines.push(
    leaks.length === 0
      ? `- Tree-shaking: no entry contains another module family's code (checked by searching every chunk for ${Object.keys(LEAK_MARKERS)
          .map((marker) => `\`${marker}\``)
          .join(', ')}).`
      : `- Tree-shaking **failed**: ${leaks.map((size) => `${size.name} (${size.bundler}) contains ${size.leaks.join(', ')}`).join('; ')}.`,
  );
  lines.push(
    '',
    '## Per-turn overhead',
    '',
    `Median milliseconds per turn over ${n(overhead.iterations)} turns (after a warm-up) on a realistic envelope (the compact form: a todo, the one before it completed, one todo replaced, three actions): parse (text to JSON), validate (the envelope validators), adjust (\`plan.adjust\`), render (\`renderPlanForTurn\`), save (the snapshot saved to a memory adapter, \`await plan.flush()\`).`,
    '',
    ...head(['todos', 'parse', 'validate', 'adjust', 'render', 'save', 'total']),
    ...overhead.turns.map((t) => row([n(t.todos), ms(t.parse), ms(t.validate), ms(t.adjust), ms(t.render), ms(t.save), `**${ms(t.total)}**`])),
    row([
      `growth ${overhead.turns[overhead.turns.length - 1]?.todos ?? ''} / ${overhead.turns[0]?.todos ?? ''}`,
      ...(['parse', 'validate', 'adjust', 'render', 'save', 'total'] as const).map((step) => `${overhead.growth[step] ?? '-'}×`),
    ]),
    '',
    `The planning call's parse (\`readPlan\`: tolerant JSON, then the todo schema) and a whole \`plan.makeTodos()\` against a scripted provider streaming without delay, median of ${n(overhead.planIterations)}. A planner answer holds at most 50 todos (\`MAX_TODOS\`), so 50 is the largest size measured.`,
    '',
    ...head(['todos', 'parse', 'makeTodos call']),
    ...overhead.makeTodos.map((p) => row([n(p.todos), ms(p.parse), ms(p.call)])),
    '',
    '## Time to first visible action',
    '',
    `A ${n(firstAction.envelopeChars)}-character envelope in the compact form the prompt teaches (\`todo\`, then a narrate with its target before its text, a tool call and a narrate) streamed by the scripted provider in ${firstAction.chunkSize}-character deltas every ${firstAction.delayMs} ms; median of ${firstAction.runs} runs per path, from the first byte to the first visible action (the first narrated words handed to \`onNarrateDelta\`, or the first action dispatched, whichever comes first) and to the last byte. Through the streaming envelope parser alone, and through one turn of \`runWebAgent\` (after the turn's plan change is applied).`,
    '',
    ...head(['path', 'first visible action', 'complete response', 'ratio']),
    ...firstAction.timings.map((timing) =>
      row([timing.via, `${timing.firstActionMs} ms`, `${timing.completeMs} ms`, `**${Math.round(timing.ratio * 100)}%**`]),
    ),
    '',
    `The first words go out as soon as they are written, at ${Math.round(firstAction.textShare * 100)}% of this text (\`actions\` starts at ${Math.round(firstAction.actionsStart * 100)}%); without streaming the words, the first action would wait for its JSON to close, at ${Math.round(firstAction.firstActionClosesAt * 100)}%.`,
    '',
    ...renderMarkdownEdit(markdownEdit),
    ...renderDomOutline(domOutline),
    ...(results.domCorpus ? renderDomCorpus(results.domCorpus) : []),
    ...(results.firstView ? renderFirstView(results.firstView) : []),
    '## Storage',
    '',
    `Median milliseconds of one save (or load) over ${n(storage.iterations)} changes to a plan of ${storage.todos} todos, a ${n(storage.docChars)}-character document and a small one. "Whole snapshot": the plan written as one value, as both adapters did before documents were stored apart; "parts": the adapter now (a manifest plus one part per document; only what changed is written). localStorage runs on a Map-backed \`Storage\` (JSON and string copies, not a browser's disk); IndexedDB on fake-indexeddb (structured clones in this process, not a browser's backing store), so the browser's own write cost comes on top of both columns.`,
    '',
    ...head(['adapter', 'change', 'whole snapshot', 'parts', 'less']),
    ...storage.rows.map((r) => row([r.adapter, r.change, `${ms(r.whole)} ms`, `${ms(r.parts)} ms`, `**${r.speedup ?? '-'}×**`])),
    '',
    ...(results.replay ? renderReplay(results.replay) : []),
  );
  return lines.join('\n');
}

/** The recorded tours section: each English canned ask live and replayed, then steps found again after markup changes. */
function renderReplay(replay: ReplayBenchResult): string[] {
  const model = replay.model;
  return [
    '## Recorded tours: live and replayed',
    '',
    `The demo's canned asks on its site (demo/index.html's pages in happy-dom: no layout, so the CSS sight checks do not apply; real Chromium is e2e/demo-replay.spec.ts) with the demo's offline model as the live model, behind a simulated model's latency (${model.firstTokenMs} ms to the first token, ${n(model.inputTokensPerSecond)} input tokens/s, ${model.outputTokensPerSecond} output tokens/s); tokens counted with o200k on what was sent and answered; narration takes no time. Live: \`runWebAgent\` with the demo's tools, recording the tour; replayed: \`replayTour\` of that tour on a fresh page and plan, no model. Medians of ${replay.runs} runs; time is from the start to the last action.`,
    '',
    ...head([
      'ask',
      'steps',
      'live: model calls',
      'live: input / output tokens',
      'live: time to last step',
      'replay: model calls',
      'replay: tokens',
      'replay: time to last step',
    ]),
    ...replay.comparisons.map((c) =>
      row([
        c.ask,
        String(c.steps),
        String(c.live.modelCalls),
        `${n(c.live.inputTokens)} / ${n(c.live.outputTokens)}`,
        `${n(c.live.lastStepMs)} ms`,
        String(c.replay.modelCalls),
        `${c.replay.inputTokens + c.replay.outputTokens}`,
        `${n(c.replay.lastStepMs)} ms`,
      ]),
    ),
    '',
    "Steps found again by their locators after each markup change (every canned ask's tour, in English, German and Japanese, recorded live here, then replayed on the changed pages without a model); a replay that cannot find a step stops there, and the offline model repairs it (the step counts as not found):",
    '',
    ...head(['change', 'steps found again', 'tours finished without a model']),
    ...replay.shares.map((share) =>
      row([
        share.change,
        `${share.found} of ${share.steps} (${Math.round((100 * share.found) / Math.max(1, share.steps))}%)`,
        `${share.finished} of ${share.tours}`,
      ]),
    ),
    '',
  ];
}

/** The token section: how each side is counted, one table per scenario without failures, then the same runs with failed turns. */
function tokensSection(tokens: TokensResult, withFailures: TokensResult): string[] {
  const lc = tokens.langchain;
  const tour = tokens.scenarios.find((scenario) => scenario.key === 'tour');
  const lines = [
    `Counted with gpt-tokenizer (${tokens.tokenizer}), on both sides as each protocol really sends it. The initial plan is the same list on both sides and is not counted; nor are the task's words, the page (its URL and text) or the actions on either side.`,
    '',
    '- **Output** (the target): planloop\'s plan members as the turn prompt teaches them (compact: `"todo":"t3"` every turn, `"last":true` on the final turn, `"replace":[…]` on a rewrite), counted as what they add to an envelope; the full envelope of the same changes (`turn_planning` and `todo_adjust` written out, as the previous prompt taught); the floor: only the bare ids (and the rewritten texts) a model must write; `write_todos`: each call with its tool-call syntax (`{"name":"write_todos","arguments":{"todos":[…]}}`), only on turns where the list changes: a todo starts, todos are rewritten, and the last turn, when the last todo is done (LangChain\'s prompt: "mark todos as completed as soon as you are done"; planloop pays `"last":true` there). A model may skip a turn with write_todos; planloop names its todo every turn.',
    `- **Input**: planloop sends a whole turn each time, with no history: the envelope instructions, what the backend adds (per backend kind, below), and the user message as \`runWebAgent\` builds it (the real \`turnUserPrompt\` and \`TurnMemory\` at its default size): the \`Task:\` label, the turn line, the \`<plan>\` block (remaining todos and memory), the \`<data>\` block (the URL label, the last turn's tool observations as a tool returning nothing gives them, the \`Page:\` label) and the tags; the task's words, the URL and the page text are left out. write_todos sends its tool definition (name, description, parameters JSON Schema) and its system prompt on every model call, and the whole history: every earlier call and tool answer.`,
    tour
      ? `- **Data fencing** (page text is data): on the tour's largest turn (turn ${tour.planContext.largestTurn}) the \`<plan>\` and \`<data>\` tags cost ${tour.fencing.tags} tokens and the instructions' data rule ${tour.fencing.rule}: ${tour.fencing.tags + tour.fencing.rule} of the ${tour.planloopInput[0]?.perTurnMax ?? '?'}.`
      : '',
    `- **Backend kinds** (what a planloop turn costs beyond the prompt): *schema enforced*: a json_schema server that compiles the schema into a grammar (llama.cpp, vLLM, Ollama, WebLLM) — nothing; *Chrome*: \`responseConstraint\`, told not to add it to the input — nothing; *instruction*: Anthropic, or a server in json_object mode — one line, since the prompt shows the shape (${tokens.fixedByBackend.instruction - tokens.fixedByBackend['schema enforced']} tokens); *schema in prompt*: a hosted json_schema API that renders the schema into the prompt (OpenAI's harmony format does for gpt-oss; OpenAI does not document it for its own models) — the schema's ${tokens.fixedByBackend['schema in prompt'] - tokens.fixedByBackend['schema enforced']} tokens, an upper bound.`,
    lc.exact
      ? `- **LangChain's texts** are read at bench time from the installed \`${lc.source}\` (\`todoListMiddleware()\`'s \`write_todos\` tool through \`@langchain/core\`'s \`convertToOpenAITool\`, \`TODO_LIST_MIDDLEWARE_SYSTEM_PROMPT\`, the tool's own answer and its error), exact: the tool is ${n(lc.toolTokens)} tokens, the system prompt ${n(lc.systemPromptTokens)}.`
      : `- **LangChain's texts are estimated** (${lc.source}): the tool description (11,389 characters) and system prompt (1,075 characters) at ${tokens.charsPerToken} characters per token, the ratio of planloop's own English prompts, give ${n(lc.toolTokens)} + ${n(lc.systemPromptTokens)} tokens; install \`langchain\` and run again for the exact figures. Output figures do not depend on it.`,
    "- **write_todos (planloop tool)**: planloop's own `createWriteTodos` (its prompt lists the current todos; it answers a short acknowledgement).",
    '',
  ].filter((line, index, all) => line !== '' || all[index - 1] !== '');
  for (const scenario of tokens.scenarios) {
    const writeTodos = scenario.output.find((protocol) => protocol.protocol === 'write_todos');
    lines.push(
      `### ${scenario.scenario}`,
      '',
      `${scenario.turns} turns, no failed turn. The largest planloop turn is turn ${scenario.planContext.largestTurn}: ${scenario.planContext.userMessageMax} tokens of user message besides the task, URL and page (the todo lines: ${scenario.planContext.max} at most).`,
      '',
      ...head(['output', 'per turn (mean / max)', 'run', 'write_todos ÷ this']),
      ...scenario.output.map((protocol) =>
        row([
          protocol.protocol,
          `${protocol.outputPerTurn.mean} / ${n(protocol.outputPerTurn.max)}`,
          n(protocol.totalOutput),
          protocol === writeTodos ? '-' : `**${ratioText(writeTodos?.totalOutput ?? 0, protocol.totalOutput)}×**`,
        ]),
      ),
      '',
      ...head(['input', 'per turn (max)', 'run']),
      ...scenario.planloopInput.map((input) => row([`planloop, ${input.backend}`, n(input.perTurnMax), n(input.total)])),
      ...scenario.writeTodosInput.map((input) => row([`${input.protocol} (fixed ${n(input.fixed)} a call)`, n(input.perTurnMax), n(input.total)])),
      '',
    );
  }
  if (withFailures.scenarios.length > 0) {
    lines.push(
      `### With failed turns: one in ${withFailures.failEvery}`,
      '',
      `The same runs, where one turn in ${withFailures.failEvery} fails once on both sides and is sent again (the same turns). planloop: the model writes the todo as a number (\`"todo":3\`); the stream parser refuses it as that value ends and the turn stops reading, so only that much is wasted, and the retry's input carries it and the error. write_todos: the whole list with one status misspelt (\`"done"\`) is refused and sent again; the refused call and the error stay in the history.`,
      '',
      ...head([
        'scenario',
        'failed turns',
        'planloop output (resent)',
        'write_todos output (resent)',
        'write_todos ÷ planloop',
        'planloop input, schema enforced',
        'write_todos input (LangChain)',
      ]),
      ...withFailures.scenarios.map((scenario) => {
        const [compact, , , writeTodos] = scenario.output;
        return row([
          scenario.scenario,
          scenario.failedTurns.join(', ') || 'none',
          `${n(compact?.totalOutput ?? 0)} (${n(compact?.resentOutput ?? 0)})`,
          `${n(writeTodos?.totalOutput ?? 0)} (${n(writeTodos?.resentOutput ?? 0)})`,
          `**${scenario.ratios.compact ?? '-'}×**`,
          n(scenario.planloopInput[0]?.total ?? 0),
          n(scenario.writeTodosInput[0]?.total ?? 0),
        ]);
      }),
      '',
    );
  }
  return lines;
}

function ratioText(a: number, b: number): string {
  return b === 0 ? '-' : String(Math.round((a / b) * 10) / 10);
}

function renderDomOutline(dom: DomOutlineResult): string[] {
  const lines = ['## Page outline (`planloop/dom`)', ''];
  if (dom.skipped) return [...lines, `Not measured: ${dom.skipped}.`, ''];
  const table = (timings: DomOutlineTiming[]) => [
    ...head(['page', 'elements', 'listable', 'listed', 'first outline', 'fastest', 'median', 'p90', 'o200k tokens', 'estimated']),
    ...timings.map((t) =>
      row([
        t.page,
        n(t.elements),
        n(t.listable),
        n(t.listed),
        `${ms(t.firstMs)} ms`,
        `${ms(t.minMs)} ms`,
        `**${ms(t.medianMs)} ms**`,
        `${ms(t.p90Ms)} ms`,
        n(t.tokens),
        n(t.estimatedTokens),
      ]),
    ),
  ];
  lines.push(
    `\`outlinePage()\` on the whole document at the default budget (400 estimated tokens), in ${dom.browser} at ${dom.viewport.width}×${dom.viewport.height}, the module as \`vite build\` ships it, bundled and minified by esbuild as an app would. The first outline of a page gives refs; the fastest, median and 90th percentile are of the ${dom.runs} outlines after it (the machine's other work shows in the median and p90, not in the fastest). Tokens: the rendered text counted with o200k, and the outline's own estimate (\`estimateTokens\`).`,
    '',
    'Generated pages (`demo/fixtures/big-page.ts`: sections with a heading, text, links, a field, buttons, a hidden part and a small navigation):',
    '',
    ...table(dom.sizes),
    '',
    "The demo's pages, site and guide (`demo/index.html` with its stylesheet, each route's template rendered into `#view`):",
    '',
    ...table(dom.demo),
    '',
  );
  if (dom.sample) lines.push("The demo's /commercial outline, as a turn prompt would carry it:", '', '```text', dom.sample, '```', '');
  return lines;
}

function renderMarkdownEdit(edit: MarkdownEditResult): string[] {
  return [
    '## Markdown editing',
    '',
    `Output tokens (${edit.tokenizer}) of the answers to a one-paragraph change of a ${n(edit.documentChars)}-character handbook (\`bench/markdown-handbook.md\`, ${n(edit.documentTokens)} tokens): the paragraph has ${edit.changed.before} tokens before and ${edit.changed.after} after. Each answer is written as a model writes it in that form and is checked to give the expected document through \`readEditAnswer\`.`,
    '',
    ...head(['answer', 'mode', 'output tokens', '÷ changed paragraph']),
    ...edit.answers.map((answer) => row([answer.answer, answer.mode, n(answer.outputTokens), `${answer.perChanged}×`])),
    '',
    `System prompts (input, once per call): rewrite ${edit.systemPrompt.rewrite} tokens, edits ${edit.systemPrompt.edits} tokens.`,
    '',
    'Threshold sweep: the handbook cut at a paragraph break near each size; a one-sentence change answered as a rewrite and as one edit block, and a change to every paragraph answered as edits (one block per paragraph). `auto` mode asks for edits from 1,500 characters on.',
    '',
    ...head(['characters', 'rewrite', 'one-sentence edit', 'every paragraph as edits']),
    ...edit.sweep.map((item) => row([n(item.chars), n(item.rewriteTokens), n(item.editTokens), n(item.everywhereEditTokens)])),
    '',
    `Median of ${edit.timings.runs} runs: reading and applying the edits answer ${ms(edit.timings.readEdits)} ms; merging a concurrent user edit into the 20 KB document (\`mergeText\`) ${ms(edit.timings.merge20k)} ms; a 100 KB document the model rewrote whole, merged with a one-line user edit (the worst case, a conflict) ${ms(edit.timings.merge100kRewrite)} ms.`,
    '',
  ];
}
