// The offline model's repertoire: a few guided tours of the Orbitly site, each a list of steps
// with the actions that carry them out. The planner half of the offline model turns the chosen
// tour into todos; the turn half finds each todo's step again from the task it reads in the prompt.

import type { TurnAction } from 'planloop';

/** A page as the planner's `Sitemap:` block lists it. */
export interface SitemapEntry {
  path: string;
  title?: string;
  description?: string;
}

/** One step: the todo it becomes and what the guide does for it. */
export interface TourStep {
  intent: 'navigate' | 'narrate' | 'click' | 'fill' | 'ask' | 'finish';
  description: string;
  actions: TurnAction[];
}

/** A tour: the task summary and its steps, in order. */
export interface Tour {
  name: 'pricing' | 'try' | 'compare-and-trial' | 'docs' | 'page';
  summary: string;
  steps: TourStep[];
}

// The target first, as the turn prompt asks: the highlight can show while the words stream.
const narrate = (text: string, target?: string): TurnAction => (target ? { type: 'narrate', target, text } : { type: 'narrate', text });
const tool = (name: string, args: Record<string, unknown>): TurnAction => ({ type: 'tool', name, args });
const finish = (summary: string): TurnAction => ({ type: 'task_finish', summary });

const words = (text: string): string[] => text.toLowerCase().match(/[a-z0-9]+/g) ?? [];

/** The sitemap path whose title or description matches `pattern`, else `fallback`. */
function pathFor(sitemap: readonly SitemapEntry[], pattern: RegExp, fallback: string): string {
  return sitemap.find((page) => pattern.test(`${page.path} ${page.title ?? ''} ${page.description ?? ''}`))?.path ?? fallback;
}

function open(title: string, path: string): TourStep {
  return { intent: 'navigate', description: `Open the ${title} page (${path})`, actions: [tool('navigate', { path })] };
}

/** Picks the tour for `task`, with paths taken from the sitemap the planner was given. */
export function tourFor(task: string, sitemap: readonly SitemapEntry[] = []): Tour {
  const t = task.toLowerCase();
  const pricing = pathFor(sitemap, /pric|plans|tiers/i, '/commercial');
  const trial = pathFor(sitemap, /trial|try/i, '/try');
  const docs = pathFor(sitemap, /docs|api|quick ?start/i, '/docs');
  const wantsTrial = /\b(trial|try|sign ?up|start)\b/.test(t);
  const aboutPlans = /\b(compare|comparison|plans?|tiers?|pric\w*|cost\w*|commercial|pay)\b/.test(t);

  if (wantsTrial && aboutPlans) {
    return {
      name: 'compare-and-trial',
      summary: 'I will compare the three plans with you, then start a Team trial on the trial form.',
      steps: [
        open('Pricing', pricing),
        { intent: 'narrate', description: 'Compare the plans side by side', actions: [narrate('This table lines the three plans up: Starter is free for up to five people, Team adds focus blocks and swaps, Business adds SSO and an audit log.', '#compare')] },
        { intent: 'narrate', description: 'Recommend the Team plan', actions: [narrate('For most small teams, Team is the sweet spot. It is also the one with a 14-day trial.', '#tier-team')] },
        { intent: 'click', description: 'Open the trial form from the Team plan', actions: [tool('click', { target: '#tier-team-cta' })] },
        {
          intent: 'fill',
          description: 'Fill in a name and a work email',
          actions: [tool('fill', { target: '#trial-name', value: 'Sam Rivera' }), tool('fill', { target: '#trial-email', value: 'sam@example.com' })],
        },
        { intent: 'fill', description: 'Choose the Team plan', actions: [tool('fill', { target: '#trial-plan', value: 'team' })] },
        { intent: 'click', description: 'Submit the form to start the trial', actions: [tool('click', { target: '#trial-submit' }), narrate('Done: the trial is set up. The confirmation is right here.', '#trial-result')] },
        { intent: 'finish', description: 'Wrap up', actions: [narrate('That is it: you compared the plans and started a Team trial.'), finish('Compared the plans and started a Team trial.')] },
      ],
    };
  }
  if (wantsTrial) {
    return {
      name: 'try',
      summary: 'I will show you the trial form and how to start a free trial.',
      steps: [
        open('Try it', trial),
        { intent: 'narrate', description: 'Walk through the trial form', actions: [narrate('This is the whole sign-up: your name, a work email and a plan. No card needed.', '#trial-form')] },
        { intent: 'narrate', description: 'Point out the plan choice', actions: [narrate('Pick the plan to try here. Team is preselected; you can switch at any time.', '#trial-plan')] },
        { intent: 'narrate', description: 'Show where to start the trial', actions: [narrate('When you are ready, this button starts your 14 days.', '#trial-submit')] },
        { intent: 'finish', description: 'Wrap up', actions: [narrate('That is how to try Orbitly. Fill it in whenever you like.'), finish('Showed how to start a trial.')] },
      ],
    };
  }
  if (aboutPlans) {
    return {
      name: 'pricing',
      summary: 'I will take you to the pricing page and introduce its three plans.',
      steps: [
        open('Pricing', pricing),
        { intent: 'narrate', description: 'Introduce the free Starter plan', actions: [narrate('Starter is free forever for up to five people: one shared calendar and basic rotations.', '#tier-starter')] },
        { intent: 'narrate', description: 'Show the Team plan, the most popular', actions: [narrate('Team is the most popular: $12 per member, with focus blocks and rotation swaps.', '#tier-team')] },
        { intent: 'narrate', description: 'Show what Business adds', actions: [narrate('Business adds SSO, an audit log and priority support, for $29 per member.', '#tier-business')] },
        { intent: 'finish', description: 'Wrap up', actions: [narrate('Those are the three plans. The table below compares them feature by feature.', '#compare'), finish('Introduced the pricing page.')] },
      ],
    };
  }
  if (/\b(docs?|documentation|api|quick ?start|integrat\w*|developers?)\b/.test(t)) {
    return {
      name: 'docs',
      summary: 'I will show you the docs: the quick start, then the API.',
      steps: [
        open('Docs', docs),
        { intent: 'narrate', description: 'Go through the quick start', actions: [narrate('Four steps get a team going: a workspace, invites, calendars and a first rotation.', '#docs-quickstart')] },
        { intent: 'narrate', description: 'Introduce the API', actions: [narrate('The REST API and its webhooks cover every schedule change.', '#docs-api')] },
        { intent: 'finish', description: 'Wrap up', actions: [narrate('That is the documentation in a nutshell.'), finish('Showed the docs.')] },
      ],
    };
  }
  return pageTour(task, sitemap);
}

/** The generic tour: the sitemap page whose words best match the task (home when none does). */
function pageTour(task: string, sitemap: readonly SitemapEntry[]): Tour {
  const taskWords = new Set(words(task).filter((w) => w.length > 2));
  let best: SitemapEntry = sitemap.find((page) => page.path === '/') ?? { path: '/', title: 'Home', description: 'what Orbitly is' };
  let bestScore = 0;
  for (const page of sitemap) {
    const score = words(`${page.title ?? ''} ${page.description ?? ''} ${page.path}`).filter((w) => taskWords.has(w)).length;
    if (score > bestScore) {
      best = page;
      bestScore = score;
    }
  }
  const title = best.title ?? best.path;
  const about = best.description?.replace(/\s*\(#[^)]*\)/g, '') ?? 'what is there';
  const firstTarget = /#[\w-]+/.exec(best.description ?? '')?.[0] ?? (best.path === '/' ? '#features' : undefined);
  return {
    name: 'page',
    summary: `I will show you the ${title} page.`,
    steps: [
      open(title, best.path),
      { intent: 'narrate', description: `Explain what the ${title} page offers`, actions: [narrate(`This page covers ${about}.`, firstTarget)] },
      { intent: 'finish', description: 'Wrap up', actions: [narrate('I am a small offline stand-in, so that is as far as I can take this one. Try one of the suggestions for a fuller tour.'), finish(`Showed the ${title} page.`)] },
    ],
  };
}

/**
 * What to do for a todo that matches no step of the tour (planned by another model, or rewritten):
 * act on its intent and the words of its description.
 */
export function actionsForTodo(intent: string, description: string): TurnAction[] {
  const d = description.toLowerCase();
  const path = /\(?(\/[a-z0-9-]*)\)?/i.exec(description)?.[1];
  if (intent === 'navigate') {
    const guess = path ?? (/pric|plan/.test(d) ? '/commercial' : /try|trial/.test(d) ? '/try' : /doc|api/.test(d) ? '/docs' : '/');
    return [tool('navigate', { path: guess })];
  }
  if (intent === 'ask') return [{ type: 'ask', question: description }];
  if (intent === 'finish') return [narrate('That is the end of the tour.'), finish(description)];
  const target = /starter/.test(d) ? '#tier-starter' : /team/.test(d) ? '#tier-team' : /business/.test(d) ? '#tier-business' : /compar/.test(d) ? '#compare' : /form|trial/.test(d) ? '#trial-form' : undefined;
  return [narrate(description.endsWith('.') ? description : `${description}.`, target)];
}
