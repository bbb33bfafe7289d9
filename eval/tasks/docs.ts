// Tasks on the eval's long docs page (eval/site/docs/guide.html): a tour of four sections in
// order, facts spread over several sections, and a page that is missing.
import { said, visited, visitedInOrder, type EvalTask, type SitePage } from '../task.js';

const PAGES: SitePage[] = [
  { path: '/docs', title: 'Docs home', description: 'where to start' },
  {
    path: '/docs/guide',
    title: 'The Orbit guide',
    description: 'one long page: install, configure, deploy, logging, migrating, troubleshooting and more (sections #install, #configure, …)',
  },
];

const TOUR = ['/docs/guide#install', '/docs/guide#configure', '/docs/guide#deploy', '/docs/guide#troubleshooting'];
const tour: EvalTask = {
  id: 'docs-tour',
  site: 'eval',
  start: '/docs',
  prompt:
    'Walk me through the Orbit guide: show me its Install, Configure, Deploy and Troubleshooting sections, in that order, and for each tell me one thing: the install command, the name of the config file, the default port, and what to do about error E42.',
  traits: ['long'],
  pages: PAGES,
  steps: [
    { name: 'showed Install', check: (end) => visitedInOrder(end, TOUR.slice(0, 1)) },
    { name: 'said the install command', check: (end) => said(end, 'npm install -g @orbit/cli') },
    { name: 'then Configure', check: (end) => visitedInOrder(end, TOUR.slice(0, 2)) },
    { name: 'said the config file (orbit.toml)', check: (end) => said(end, 'orbit.toml') },
    { name: 'then Deploy', check: (end) => visitedInOrder(end, TOUR.slice(0, 3)) },
    { name: 'said the default port (7419)', check: (end) => said(end, /\b7419\b/) },
    { name: 'then Troubleshooting', check: (end) => visitedInOrder(end, TOUR) },
    { name: 'said what to do about E42', check: (end) => said(end, 'orbit login --refresh') },
  ],
  turns: 12,
  script: [
    {
      todo: 'Show Install',
      actions: [
        { type: 'tool', name: 'navigate', args: { path: '/docs/guide#install' } },
        { type: 'tool', name: 'read', args: { target: '#install' } },
      ],
    },
    { todo: 'Tell the install command', actions: [{ type: 'narrate', target: '#install', text: 'Install it with npm install -g @orbit/cli.' }] },
    {
      todo: 'Show Configure',
      actions: [
        { type: 'tool', name: 'navigate', args: { path: '/docs/guide#configure' } },
        { type: 'tool', name: 'read', args: { target: '#configure' } },
      ],
    },
    { todo: 'Tell the config file', actions: [{ type: 'narrate', target: '#configure', text: 'Settings live in orbit.toml.' }] },
    {
      todo: 'Show Deploy',
      actions: [
        { type: 'tool', name: 'navigate', args: { path: '/docs/guide#deploy' } },
        { type: 'tool', name: 'read', args: { target: '#deploy' } },
      ],
    },
    { todo: 'Tell the port', actions: [{ type: 'narrate', target: '#deploy', text: 'Services listen on port 7419 by default.' }] },
    {
      todo: 'Show Troubleshooting',
      actions: [
        { type: 'tool', name: 'navigate', args: { path: '/docs/guide#troubleshooting' } },
        { type: 'tool', name: 'read', args: { target: '#troubleshooting' } },
      ],
    },
    { todo: 'Tell the E42 fix', actions: [{ type: 'narrate', target: '#troubleshooting', text: 'For E42, run orbit login --refresh.' }] },
  ],
};

const VARIABLES = ['ORBIT_TOKEN', 'ORBIT_REGION', 'ORBIT_PORT', 'ORBIT_WORKERS', 'ORBIT_CACHE_DIR', 'ORBIT_LOG_LEVEL'];
const environment: EvalTask = {
  id: 'docs-every-variable',
  site: 'eval',
  start: '/docs/guide',
  prompt: 'Which environment variables does Orbit read? List every one the guide mentions.',
  traits: ['early-stop'],
  pages: PAGES,
  steps: VARIABLES.map((name) => ({ name: `said ${name}`, check: (end) => said(end, new RegExp(`\\b${name}\\b`)) })),
  turns: 8,
  script: [
    { todo: 'Read Configure', actions: [{ type: 'tool', name: 'read', args: { target: '#configure' } }] },
    { todo: 'Read Deploy', actions: [{ type: 'tool', name: 'read', args: { target: '#deploy' } }] },
    { todo: 'Read Logging', actions: [{ type: 'tool', name: 'read', args: { target: '#logging' } }] },
    { todo: 'List them', actions: [{ type: 'narrate', text: `Orbit reads ${VARIABLES.join(', ')}.` }] },
  ],
};

const migrate: EvalTask = {
  id: 'docs-missing-page',
  site: 'eval',
  start: '/docs',
  prompt: 'Open the migration guide at /docs/migrate and tell me the command that migrates a v1 workspace.',
  traits: ['replan'],
  pages: PAGES,
  steps: [
    { name: 'tried /docs/migrate', check: (end) => visited(end, '/docs/migrate') },
    {
      name: 'then looked in the guide',
      check: (end) =>
        end.visits.slice(end.visits.indexOf('/docs/migrate') + 1).some((visit) => visit.startsWith('/docs/guide')) && visited(end, '/docs/migrate'),
    },
    { name: 'said the command (orbit migrate --from v1)', check: (end) => said(end, 'orbit migrate --from v1') },
  ],
  turns: 6,
  script: [
    { todo: 'Open the migration guide', actions: [{ type: 'tool', name: 'navigate', args: { path: '/docs/migrate' } }] },
    {
      todo: 'Look in the guide instead',
      actions: [
        { type: 'tool', name: 'navigate', args: { path: '/docs/guide#migrating' } },
        { type: 'tool', name: 'read', args: { target: '#migrating' } },
      ],
    },
    { todo: 'Tell the command', actions: [{ type: 'narrate', target: '#migrating', text: 'That page is gone; the guide says: orbit migrate --from v1.' }] },
  ],
};

/** The tasks on the docs pages. */
export const DOCS_TASKS: readonly EvalTask[] = [tour, environment, migrate];
