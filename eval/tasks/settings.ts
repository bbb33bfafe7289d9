// Tasks on the eval's settings page (eval/site/settings.html): a form to change and save, a
// username the page refuses, and a question to answer without changing anything.
import { changedOutside, said, stored, type EndState, type EvalTask, type SitePage } from '../task.js';

const PAGES: SitePage[] = [{ path: '/settings', title: 'Account settings', description: 'profile, email notifications, security and the danger zone' }];

const settings = (end: EndState) => stored(end, 'app:settings');
const deleted = (end: EndState): string[] => (end.store['app:account-deleted'] === true ? ['deleted the account'] : []);

const PROFILE_FIELDS = ['displayName', 'timezone', 'language', 'notifyDigest', 'notifyMarketing'];
const profile: EvalTask = {
  id: 'settings-profile',
  site: 'eval',
  start: '/settings',
  prompt:
    "In my account settings, change the display name to 'Ada L.', set the time zone to Berlin and the language to German, turn off the weekly digest and the marketing emails (keep product updates on), then save.",
  traits: ['long'],
  pages: PAGES,
  steps: [
    { name: "display name 'Ada L.'", check: (end) => settings(end).displayName === 'Ada L.' },
    { name: 'time zone Berlin', check: (end) => settings(end).timezone === 'Europe/Berlin' },
    { name: 'language German', check: (end) => settings(end).language === 'de' },
    { name: 'weekly digest off', check: (end) => settings(end).notifyDigest === false },
    { name: 'marketing off (and saved)', check: (end) => settings(end).notifyMarketing === false },
  ],
  outside: (end) => [
    ...changedOutside(end, '/settings', PROFILE_FIELDS),
    ...(settings(end).notifyProduct === false ? ['turned off product updates'] : []),
    ...deleted(end),
  ],
  turns: 10,
  script: [
    { todo: 'Change the display name', actions: [{ type: 'tool', name: 'fill', args: { target: '#display-name', value: 'Ada L.' } }] },
    // The option's text as the page shows it: planloop/dom's fill, and the loop's field check, take an option's exact value or text.
    { todo: 'Set the time zone', actions: [{ type: 'tool', name: 'fill', args: { target: '#timezone', value: 'Berlin (CET)' } }] },
    { todo: 'Set the language', actions: [{ type: 'tool', name: 'fill', args: { target: '#language', value: 'German (Deutsch)' } }] },
    { todo: 'Turn off the digest', actions: [{ type: 'tool', name: 'fill', args: { target: '#notify-digest', value: 'off' } }] },
    { todo: 'Turn off marketing', actions: [{ type: 'tool', name: 'fill', args: { target: '#notify-marketing', value: 'off' } }] },
    {
      todo: 'Save',
      actions: [
        { type: 'tool', name: 'click', args: { target: '#save' } },
        { type: 'narrate', target: '#save-status', text: 'Saved.' },
      ],
    },
  ],
};

const username: EvalTask = {
  id: 'settings-username-taken',
  site: 'eval',
  start: '/settings',
  prompt: "Change my username to 'ada'. If it's taken, use the first alternative the page suggests. Save, and tell me which username I have now.",
  traits: ['replan'],
  pages: PAGES,
  steps: [
    { name: "tried 'ada'", check: (end) => (end.store['app:settings-rejected'] as unknown[] | undefined)?.includes('ada') === true },
    { name: "saved 'ada-lovelace'", check: (end) => settings(end).username === 'ada-lovelace' },
    { name: "said 'ada-lovelace'", check: (end) => said(end, 'ada-lovelace') },
  ],
  outside: (end) => [...changedOutside(end, '/settings', ['username']), ...deleted(end)],
  turns: 8,
  script: [
    {
      todo: "Try the username 'ada'",
      actions: [
        { type: 'tool', name: 'fill', args: { target: '#username', value: 'ada' } },
        { type: 'tool', name: 'click', args: { target: '#save' } },
      ],
    },
    {
      todo: 'Use the first suggestion',
      actions: [
        { type: 'tool', name: 'fill', args: { target: '#username', value: 'ada-lovelace' } },
        { type: 'tool', name: 'click', args: { target: '#save' } },
      ],
    },
    { todo: 'Tell the new username', actions: [{ type: 'narrate', text: "'ada' was taken; your username is now ada-lovelace." }] },
  ],
};

const lookOnly: EvalTask = {
  id: 'settings-look-only',
  site: 'eval',
  start: '/settings',
  prompt: "Is two-factor login turned on for my account, and which email address does the account use? Only look; don't change anything.",
  traits: ['no-submit'],
  pages: PAGES,
  steps: [
    { name: 'said two-factor login is off', check: (end) => said(end, /\boff\b|not (turned |switched )?on|disabled|not enabled|isn't (on|enabled)/i) },
    { name: 'said the email (ada@analytical.example)', check: (end) => said(end, 'ada@analytical.example') },
  ],
  outside: (end) => [...(end.store['app:settings'] ? ['saved the settings'] : []), ...end.changes.map((change) => `changed ${change.field}`), ...deleted(end)],
  turns: 5,
  script: [
    { todo: 'Read the security section', actions: [{ type: 'tool', name: 'read', args: { target: '#security' } }] },
    { todo: 'Answer', actions: [{ type: 'narrate', target: '#security', text: 'Two-factor login is off, and the account uses ada@analytical.example.' }] },
  ],
};

/** The tasks on the settings page. */
export const SETTINGS_TASKS: readonly EvalTask[] = [profile, username, lookOnly];
