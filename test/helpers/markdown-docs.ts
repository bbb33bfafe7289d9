/** Documents for the markdown-editing tests: one short enough to be rewritten, one long enough for edits. */

const fence = '```';

/** 200 characters: rewritten whole in `auto` mode. It holds a code fence of its own. */
export const SHORT_DOC = {
  title: 'Pricing',
  content: `# Pricing\n\nThere are three tiers: Starter, Team and Enterprise.\nThey differ in seats and support.\n\n${fence}bash\nnpm install planloop\n${fence}\n`,
};

/** About 2,600 characters of tour notes: edited with SEARCH/REPLACE blocks in `auto` mode. */
export const LONG_DOC = {
  title: 'Tour notes',
  content: `# Tour notes

These notes collect what visitors asked during the guided tours in March, and what we changed on the site because of it.

## Pricing

Visitors compare the tiers before anything else. Most of them ask whether the Team plan includes the audit log; it does, since the February release.
The Starter plan is free for up to three seats. Beyond that, every seat costs 8 euros a month, billed yearly.

- Starter: 3 seats, community support
- Team: up to 50 seats, email support, audit log
- Enterprise: unlimited seats, a named contact, single sign-on

## Onboarding

The first tour step opens the pricing page; the second one shows the sign-up form. People who skip the pricing page drop out twice as often, so the tour should keep that order.

To try the SDK locally:

${fence}bash
npm install planloop
npx planloop demo
${fence}

The demo starts on port 5173 and opens the tour panel on the right.

## Questions we heard

1. Can I export my plan as a checklist? Yes: plan.md checklists round-trip.
2. Does it work offline? The offline model plans tours and edits notes, nothing else.
3. Which browsers? Every evergreen browser; the Prompt API needs Chrome.
4. Can two tabs edit the same note? Yes, edits from other tabs arrive through storage events.

## Open issues

- The sign-up form loses the email field when the tour navigates back.
- The tour panel overlaps the cookie banner on small screens.
- Narration bubbles stay too short for long sentences; read time should follow the text length.

## Next steps

We will shorten the first narration, move the pricing comparison into a table, and test the tour with five new visitors before the April release. Anna owns the table, Kofi the narration, and Lea the visitor sessions.
`,
};
