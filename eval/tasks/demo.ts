// Tasks on the demo's Orbitly site (demo/index.html, served by Vite): pricing, a trial form, docs.
import { said, visited, visitedInOrder, type EndState, type EvalTask, type FormSubmit, type SitePage } from '../task.js';

const PAGES: SitePage[] = [
  { path: '/', title: 'Home', description: 'what Orbitly is and its three features' },
  { path: '/commercial', title: 'Pricing', description: 'the Starter, Team and Business plans and a comparison table' },
  { path: '/try', title: 'Try it', description: 'the free-trial form' },
  { path: '/docs', title: 'Docs', description: 'a quick start and the API' },
];

/** Trial submissions the form accepted. */
const trials = (end: EndState): FormSubmit[] => end.submits.filter((submit) => submit.form === 'trial-form' && submit.status.startsWith('Welcome aboard'));
const lastTrial = (end: EndState): FormSubmit | undefined => trials(end).at(-1);
const oneTrial = (end: EndState): string[] => (trials(end).length > 1 ? [`started ${trials(end).length} trials`] : []);

const businessTrial: EvalTask = {
  id: 'demo-business-trial',
  site: 'demo',
  start: '/',
  prompt:
    'Check the price of the Business plan on the pricing page and tell me what it costs, then start a Business trial for Grace Hopper with the email grace@navy.example.',
  traits: [],
  pages: PAGES,
  steps: [
    { name: 'opened the pricing page', check: (end) => visited(end, '/commercial') },
    { name: 'said the Business price ($29)', check: (end) => said(end, /\$?\b29\b/) },
    { name: 'trial name Grace Hopper', check: (end) => lastTrial(end)?.fields.name === 'Grace Hopper' },
    { name: 'trial email grace@navy.example', check: (end) => lastTrial(end)?.fields.email === 'grace@navy.example' },
    { name: 'Business plan chosen', check: (end) => lastTrial(end)?.fields.plan === 'business' },
    { name: 'trial started', check: (end) => trials(end).length > 0 },
  ],
  outside: oneTrial,
  turns: 10,
  script: [
    { todo: 'Open the pricing page', actions: [{ type: 'tool', name: 'navigate', args: { path: '/commercial' } }] },
    { todo: 'Read the Business plan', actions: [{ type: 'tool', name: 'read', args: { target: '#tier-business' } }] },
    { todo: 'Tell the Business price', actions: [{ type: 'narrate', target: '#tier-business', text: 'Business costs $29 per member per month.' }] },
    { todo: 'Open the trial form', actions: [{ type: 'tool', name: 'navigate', args: { path: '/try' } }] },
    {
      todo: 'Fill in the trial form',
      actions: [
        { type: 'tool', name: 'fill', args: { target: '#trial-name', value: 'Grace Hopper' } },
        { type: 'tool', name: 'fill', args: { target: '#trial-email', value: 'grace@navy.example' } },
        { type: 'tool', name: 'fill', args: { target: '#trial-plan', value: 'Business' } },
      ],
    },
    {
      todo: 'Start the trial',
      actions: [
        { type: 'tool', name: 'click', args: { target: '#trial-submit' } },
        { type: 'narrate', text: 'Your Business trial has started.' },
      ],
    },
  ],
};

const prices: EvalTask = {
  id: 'demo-prices-sso',
  site: 'demo',
  start: '/',
  prompt: 'What do the Starter, Team and Business plans cost, and which of them includes SSO?',
  traits: ['early-stop'],
  pages: PAGES,
  steps: [
    { name: 'said the Starter price ($0 / free)', check: (end) => said(end, /\$0\b|\bfree\b/i) },
    { name: 'said the Team price ($12)', check: (end) => said(end, /\$?\b12\b/) },
    { name: 'said the Business price ($29)', check: (end) => said(end, /\$?\b29\b/) },
    { name: 'said SSO is in Business', check: (end) => said(end, /business[^\n]*\bsso\b|\bsso\b[^\n]*business/i) },
  ],
  turns: 6,
  script: [
    { todo: 'Open the pricing page', actions: [{ type: 'tool', name: 'navigate', args: { path: '/commercial' } }] },
    { todo: 'Read the plans', actions: [{ type: 'tool', name: 'read', args: { target: '#pricing-tiers' } }] },
    { todo: 'Tell the prices', actions: [{ type: 'narrate', text: 'Starter is $0, Team is $12 and Business is $29 per member per month.' }] },
    {
      todo: 'Tell which plan has SSO',
      actions: [
        { type: 'tool', name: 'read', args: { target: '#compare' } },
        { type: 'narrate', target: '#compare', text: 'Only Business includes SSO and the audit log.' },
      ],
    },
  ],
};

const TOUR = ['/', '/commercial', '/docs'];
const tour: EvalTask = {
  id: 'demo-tour',
  site: 'demo',
  start: '/try',
  prompt:
    'Give me a tour: the home page, then the pricing page, then the docs, in that order. On each, tell me one thing: the name of a feature, the price of the Team plan, and the first quick-start step.',
  traits: ['long'],
  pages: PAGES,
  steps: [
    { name: 'showed the home page', check: (end) => visitedInOrder(end, TOUR.slice(0, 1)) },
    { name: 'named a feature', check: (end) => said(end, /rotation|focus block|calendar sync/i) },
    { name: 'then the pricing page', check: (end) => visitedInOrder(end, TOUR.slice(0, 2)) },
    { name: 'said the Team price ($12)', check: (end) => said(end, /\$?\b12\b/) },
    { name: 'then the docs', check: (end) => visitedInOrder(end, TOUR) },
    { name: 'said the first quick-start step (create a workspace)', check: (end) => said(end, /workspace/i) },
  ],
  turns: 10,
  script: [
    { todo: 'Open the home page', actions: [{ type: 'tool', name: 'navigate', args: { path: '/' } }] },
    { todo: 'Name a feature', actions: [{ type: 'narrate', target: '#feature-rotations', text: 'Fair rotations spread on-call shifts evenly.' }] },
    { todo: 'Open pricing', actions: [{ type: 'tool', name: 'navigate', args: { path: '/commercial' } }] },
    { todo: 'Tell the Team price', actions: [{ type: 'narrate', target: '#tier-team', text: 'Team costs $12 per member per month.' }] },
    { todo: 'Open the docs', actions: [{ type: 'tool', name: 'navigate', args: { path: '/docs' } }] },
    { todo: 'Tell the first step', actions: [{ type: 'narrate', target: '#docs-quickstart', text: 'Step one: create a workspace.' }] },
  ],
};

const changelog: EvalTask = {
  id: 'demo-missing-changelog',
  site: 'demo',
  start: '/',
  prompt: 'Open the changelog at /changelog and tell me what changed recently. If there is no changelog, tell me instead which API endpoint the docs show.',
  traits: ['replan'],
  pages: PAGES,
  steps: [
    { name: 'tried /changelog', check: (end) => visited(end, '/changelog') },
    { name: 'then opened the docs', check: (end) => visitedInOrder(end, ['/changelog', '/docs']) },
    { name: 'said the endpoint (/v1/rotations/:id/shifts)', check: (end) => said(end, '/v1/rotations') },
  ],
  turns: 6,
  script: [
    { todo: 'Open the changelog', actions: [{ type: 'tool', name: 'navigate', args: { path: '/changelog' } }] },
    {
      todo: 'Open the docs instead',
      actions: [
        { type: 'tool', name: 'navigate', args: { path: '/docs' } },
        { type: 'tool', name: 'read', args: { target: '#docs-api' } },
      ],
    },
    {
      todo: 'Tell the endpoint',
      actions: [{ type: 'narrate', target: '#docs-api', text: 'There is no changelog. The docs show GET /v1/rotations/:id/shifts.' }],
    },
  ],
};

const BAD_EMAIL = 'lin.chen at example.com';
const refusedEmail: EvalTask = {
  id: 'demo-trial-refused-email',
  site: 'demo',
  start: '/try',
  prompt: `Start a Starter trial for Lin Chen with the email '${BAD_EMAIL}'. If the form refuses that email, use lin.chen@example.com instead.`,
  traits: ['replan'],
  pages: PAGES,
  steps: [
    { name: 'tried the given email and was refused', check: (end) => end.submits.some((s) => s.fields.email === BAD_EMAIL && !s.status.startsWith('Welcome')) },
    { name: 'trial name Lin Chen', check: (end) => lastTrial(end)?.fields.name === 'Lin Chen' },
    { name: 'Starter plan chosen', check: (end) => lastTrial(end)?.fields.plan === 'starter' },
    { name: 'trial started with lin.chen@example.com', check: (end) => lastTrial(end)?.fields.email === 'lin.chen@example.com' },
  ],
  outside: oneTrial,
  turns: 7,
  script: [
    {
      todo: 'Fill in the form with the given email',
      actions: [
        { type: 'tool', name: 'fill', args: { target: '#trial-name', value: 'Lin Chen' } },
        { type: 'tool', name: 'fill', args: { target: '#trial-email', value: BAD_EMAIL } },
        { type: 'tool', name: 'fill', args: { target: '#trial-plan', value: 'starter' } },
      ],
    },
    { todo: 'Submit it', actions: [{ type: 'tool', name: 'click', args: { target: '#trial-submit' } }] },
    {
      todo: 'Use the other email and submit again',
      actions: [
        { type: 'tool', name: 'fill', args: { target: '#trial-email', value: 'lin.chen@example.com' } },
        { type: 'tool', name: 'click', args: { target: '#trial-submit' } },
        { type: 'narrate', text: 'The first email was refused, so I used lin.chen@example.com; your Starter trial is ready.' },
      ],
    },
  ],
};

/** The tasks on the demo site. */
export const DEMO_TASKS: readonly EvalTask[] = [businessTrial, prices, tour, changelog, refusedEmail];
