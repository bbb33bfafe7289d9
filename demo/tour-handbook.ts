// A long note for the notes panel (about 4 KB, past planloop's EDITS_MIN_CHARS): the model edits a
// note this long in place, with SEARCH/REPLACE blocks, instead of sending the whole of it back.
// The facts match the Orbitly site (index.html); each paragraph says something none of the others
// says, so that "the refunds paragraph" or "the trials section" names one place.

/** The sample note's title. */
export const TOUR_HANDBOOK_TITLE = 'Tour handbook';

/** The sample note's markdown. */
export const TOUR_HANDBOOK = `# Tour handbook

This handbook is for the people who show visitors around Orbitly, in person or on a call. It says what each page of the site is for, what visitors usually ask there, and how we answer. Keep it open during a tour; nobody expects you to know it by heart.

## Before the tour

Ask the visitor what brought them here and how big their team is before you open the first page. A team of three and a hospital ward of sixty need different tours, and the question takes ten seconds. Write their answer down: it decides which plan you end the tour on.

## The home page

Start on the home page and let the headline do its work: Orbitly keeps a team's week in orbit. Then walk through the three feature cards from left to right. Fair rotations spread on-call and support shifts evenly, with swaps in two clicks. Focus blocks protect deep-work hours and make meetings route around them. Calendar sync works with the calendars the team already uses, so nobody has to switch.

## Pricing

The pricing page has three plans. Starter is free forever for up to five members, with one shared calendar and basic rotations. Team costs $12 per member and month and adds unlimited members, focus blocks, rotation swaps and reminders; it is the plan most visitors end up on. Business costs $29 per member and month and adds SSO, an audit log and priority support. Below the plans, the comparison table shows the same facts side by side; point at it when a visitor hesitates between two plans.

## Trials

Every paid plan can be tried for 14 days without a card. The trial form asks for a name, a work email and a plan, and the Team plan is selected unless the visitor picked another one on the pricing page. Offer to fill the form together at the end of the tour, never at the start.

## Refunds

Orbitly refunds a paid month in full when the customer asks within 14 days of the charge, no questions asked. After that, a cancelled plan stays active until the end of the month that was paid for. Refunds go back to the card that paid, and finance handles them within five working days.

## The docs

The docs page has a quick start in four steps (create a workspace, invite the team, connect the calendars, set up a first rotation) and the API reference. Developers usually want to know about webhooks: every schedule change sends one, and requests authenticate with a workspace token.

## Tone

Speak plainly and keep each explanation to a sentence or two. Name the element you point at, wait for the visitor to find it, and never rush past a question to stay on schedule. If you do not know an answer, say so and write the question down.

## Accessibility

Some visitors use a screen reader or only a keyboard. Every page of the site works without a mouse: the tab key moves through the links and buttons in reading order, and the guide's own controls answer to Space and Escape. Describe what you point at in words as well as with the highlight, and give the visitor time to get there before you go on.

## When something breaks

If a page does not load or the guide stops, say so plainly and carry on from the last page that worked; the visitor's time matters more than the script. Note the page, the time and what you clicked, and send it to the support channel after the tour. Never promise a fix date on the spot.

## Questions visitors ask

- Can we keep our calendars? Yes: Calendar sync reads and writes the calendars the team already uses.
- Is there a limit on rotations? No, on any plan.
- Can a member be on two teams? Yes, with one login.
- Do you offer discounts? For schools and charities; sales decides case by case.

## After the tour

Send the visitor a short summary the same day: the plan you recommended, the questions they asked, and a link to start the trial. Log the tour in the team sheet so that the next guide knows what was already shown.
`;
