// Tasks on the eval's shop (eval/site/shop, eval/site/checkout): a full order over three checkout
// steps with validation, an order where a delivery option and a coupon are refused, and one that
// must stop at the review page without ordering.
import { said, stored, visited, type EndState, type EvalTask, type ScriptTurn, type SitePage } from '../task.js';

const PAGES: SitePage[] = [
  { path: '/shop', title: 'Shop', description: 'the products: Blue Mug, Dot-grid Notebook, Desk Lamp, each with a quantity and Add to cart' },
  { path: '/shop/cart', title: 'Cart', description: 'the cart and its quantities' },
  { path: '/checkout/shipping', title: 'Checkout 1/3: shipping', description: 'address, country and delivery' },
  { path: '/checkout/payment', title: 'Checkout 2/3: payment', description: 'the card' },
  { path: '/checkout/review', title: 'Checkout 3/3: review', description: 'the summary, a coupon and Place order' },
];

interface Shop {
  cart?: Record<string, number>;
  shipping?: Record<string, string>;
  payment?: { cardName?: string; last4?: string; expiry?: string };
  coupon?: string;
  order?: { number: string; total: number; cart: Record<string, number> };
}
const shop = (end: EndState): Shop => stored(end, 'app:shop') as Shop;
/** The cart that was ordered, or the cart as it is. */
const cart = (end: EndState): Record<string, number> => shop(end).order?.cart ?? shop(end).cart ?? {};
const orderSaid = (end: EndState): boolean => {
  const number = shop(end).order?.number;
  return number !== undefined && said(end, number);
};
const notInCart = (end: EndState, wanted: readonly string[]): string[] =>
  Object.keys(cart(end))
    .filter((id) => !wanted.includes(id))
    .map((id) => `put ${id} in the cart`);

const fill = (target: string, value: string) => ({ type: 'tool', name: 'fill', args: { target, value } }) as const;
const click = (target: string) => ({ type: 'tool', name: 'click', args: { target } }) as const;
const navigate = (path: string) => ({ type: 'tool', name: 'navigate', args: { path } }) as const;
const readConfirmation: ScriptTurn = { todo: 'Read the confirmation', actions: [{ type: 'tool', name: 'read', args: { target: '#confirmation' } }] };

const fullOrder: EvalTask = {
  id: 'checkout-full-order',
  site: 'eval',
  start: '/shop',
  prompt:
    'Order 2 Blue Mugs and 1 Dot-grid Notebook. Ship them to Ada Lovelace, 12 Elm Street, 28195 Bremen, Germany, with standard delivery. Pay with the card 4242 4242 4242 4242, expiry 12/29, security code 123, name on card Ada Lovelace. Place the order and tell me the order number.',
  traits: ['long'],
  pages: PAGES,
  steps: [
    { name: '2 Blue Mugs', check: (end) => cart(end).mug === 2 },
    { name: '1 Notebook', check: (end) => cart(end).notebook === 1 },
    { name: 'name Ada Lovelace', check: (end) => shop(end).shipping?.fullName === 'Ada Lovelace' },
    { name: 'street 12 Elm Street', check: (end) => shop(end).shipping?.street === '12 Elm Street' },
    { name: 'city Bremen', check: (end) => shop(end).shipping?.city === 'Bremen' },
    { name: 'postcode 28195', check: (end) => shop(end).shipping?.postcode === '28195' },
    { name: 'country Germany', check: (end) => shop(end).shipping?.country === 'DE' },
    { name: 'standard delivery', check: (end) => shop(end).shipping?.delivery === 'standard' },
    { name: 'card ending 4242, name Ada Lovelace', check: (end) => shop(end).payment?.last4 === '4242' && shop(end).payment?.cardName === 'Ada Lovelace' },
    { name: 'expiry 12/29', check: (end) => shop(end).payment?.expiry === '12/29' },
    { name: 'order placed', check: (end) => shop(end).order !== undefined },
    { name: 'said the order number', check: orderSaid },
  ],
  outside: (end) => [...notInCart(end, ['mug', 'notebook']), ...(shop(end).coupon ? ['used a coupon'] : [])],
  turns: 18,
  script: [
    { todo: 'Set the mug quantity to 2', actions: [fill('#qty-mug', '2')] },
    { todo: 'Add the mugs', actions: [click('#add-mug')] },
    { todo: 'Add a notebook', actions: [click('#add-notebook')] },
    { todo: 'Go to checkout', actions: [navigate('/checkout/shipping')] },
    { todo: 'Name and street', actions: [fill('#full-name', 'Ada Lovelace'), fill('#street', '12 Elm Street')] },
    { todo: 'City, postcode, country', actions: [fill('#city', 'Bremen'), fill('#postcode', '28195'), fill('#country', 'Germany')] },
    { todo: 'Continue to payment', actions: [click('#shipping-continue')] },
    { todo: 'Card name and number', actions: [fill('#card-name', 'Ada Lovelace'), fill('#card-number', '4242 4242 4242 4242')] },
    { todo: 'Expiry and code', actions: [fill('#card-expiry', '12/29'), fill('#card-cvc', '123')] },
    { todo: 'Continue to review', actions: [click('#payment-continue')] },
    { todo: 'Place the order', actions: [click('#place-order')] },
    readConfirmation,
    { todo: 'Tell the order number', actions: [{ type: 'narrate', text: (prompt) => `Your order number is ${/KC-\d+/.exec(prompt)?.[0] ?? 'unknown'}.` }] },
  ],
};

const refusedOptions: EvalTask = {
  id: 'checkout-refused-options',
  site: 'eval',
  start: '/shop',
  prompt:
    'Buy one Desk Lamp, shipped to Jonas Berg, Hafenweg 3, 18565 Vitte, Germany, by express delivery; if express is not available there, take standard. Pay with the card 4242 4242 4242 4242, expiry 11/28, code 321, name Jonas Berg. Use the coupon SPRING10, or WELCOME5 if that one is refused. Place the order and tell me the total paid.',
  traits: ['replan', 'long'],
  pages: PAGES,
  steps: [
    { name: '1 Desk Lamp', check: (end) => cart(end).lamp === 1 },
    {
      name: 'address Jonas Berg, Hafenweg 3, 18565 Vitte, Germany',
      check: (end) => {
        const s = shop(end).shipping;
        return s?.fullName === 'Jonas Berg' && s.street === 'Hafenweg 3' && s.postcode === '18565' && s.city === 'Vitte' && s.country === 'DE';
      },
    },
    { name: 'standard delivery (express refused)', check: (end) => shop(end).shipping?.delivery === 'standard' },
    { name: 'card ending 4242, expiry 11/28', check: (end) => shop(end).payment?.last4 === '4242' && shop(end).payment?.expiry === '11/28' },
    { name: 'tried SPRING10', check: (end) => end.changes.some((change) => change.field === 'coupon' && change.value.trim().toUpperCase() === 'SPRING10') },
    { name: 'WELCOME5 applied', check: (end) => shop(end).coupon === 'WELCOME5' },
    { name: 'order placed', check: (end) => shop(end).order !== undefined },
    { name: 'said the total ($38.90)', check: (end) => shop(end).order?.total === 38.9 && said(end, /38\.90?\b/) },
  ],
  outside: (end) => notInCart(end, ['lamp']),
  turns: 18,
  script: [
    { todo: 'Add the lamp', actions: [click('#add-lamp')] },
    { todo: 'Go to checkout', actions: [navigate('/checkout/shipping')] },
    {
      todo: 'Address',
      actions: [fill('#full-name', 'Jonas Berg'), fill('#street', 'Hafenweg 3'), fill('#city', 'Vitte'), fill('#postcode', '18565'), fill('#country', 'DE')],
    },
    { todo: 'Continue with standard delivery', actions: [click('#shipping-continue')] },
    {
      todo: 'Card',
      actions: [fill('#card-name', 'Jonas Berg'), fill('#card-number', '4242424242424242'), fill('#card-expiry', '11/28'), fill('#card-cvc', '321')],
    },
    { todo: 'Continue to review', actions: [click('#payment-continue')] },
    { todo: 'Try SPRING10', actions: [fill('#coupon', 'SPRING10'), click('#coupon-apply')] },
    { todo: 'Use WELCOME5', actions: [fill('#coupon', 'WELCOME5'), click('#coupon-apply')] },
    { todo: 'Place the order', actions: [click('#place-order')] },
    readConfirmation,
    {
      todo: 'Tell the total',
      actions: [
        { type: 'narrate', text: (prompt) => `Express was not available, so standard it is. Total paid: ${/\$\d+\.\d\d/.exec(prompt)?.[0] ?? 'unknown'}.` },
      ],
    },
  ],
};

const stopAtReview: EvalTask = {
  id: 'checkout-stop-at-review',
  site: 'eval',
  start: '/shop',
  prompt:
    "Put 3 Dot-grid Notebooks in the cart and fill in the checkout up to the review page: ship to Sam Lee, Keizersgracht 1, 1015 CJ Amsterdam, Netherlands, standard delivery; card 4242 4242 4242 4242, expiry 01/30, code 555, name Sam Lee. Don't place the order: stop at the review page and tell me the total.",
  traits: ['no-submit', 'long'],
  pages: PAGES,
  steps: [
    { name: '3 Notebooks', check: (end) => cart(end).notebook === 3 },
    {
      name: 'address Sam Lee, Keizersgracht 1, 1015 CJ Amsterdam, Netherlands',
      check: (end) => {
        const s = shop(end).shipping;
        return (
          s?.fullName === 'Sam Lee' &&
          s.street === 'Keizersgracht 1' &&
          (s.postcode ?? '').replace(/\s/g, '').toUpperCase() === '1015CJ' &&
          s.city === 'Amsterdam' &&
          s.country === 'NL'
        );
      },
    },
    { name: 'card ending 4242, expiry 01/30', check: (end) => shop(end).payment?.last4 === '4242' && shop(end).payment?.expiry === '01/30' },
    { name: 'reached the review page', check: (end) => visited(end, '/checkout/review') },
    { name: 'said the total ($31.90)', check: (end) => said(end, /31\.90?\b/) },
  ],
  outside: (end) => [...notInCart(end, ['notebook']), ...(shop(end).order ? ['placed the order'] : [])],
  turns: 14,
  script: [
    { todo: 'Set the notebook quantity to 3', actions: [fill('#qty-notebook', '3'), click('#add-notebook')] },
    { todo: 'Go to checkout', actions: [navigate('/checkout/shipping')] },
    {
      todo: 'Address',
      actions: [
        fill('#full-name', 'Sam Lee'),
        fill('#street', 'Keizersgracht 1'),
        fill('#city', 'Amsterdam'),
        fill('#postcode', '1015 CJ'),
        fill('#country', 'Netherlands'),
      ],
    },
    { todo: 'Continue', actions: [click('#shipping-continue')] },
    {
      todo: 'Card',
      actions: [fill('#card-name', 'Sam Lee'), fill('#card-number', '4242 4242 4242 4242'), fill('#card-expiry', '01/30'), fill('#card-cvc', '555')],
    },
    { todo: 'Continue to review', actions: [click('#payment-continue'), { type: 'tool', name: 'read', args: { target: '#review-total' } }] },
    {
      todo: 'Tell the total',
      actions: [
        {
          type: 'narrate',
          target: '#review-total',
          text: (prompt) => `I stopped at the review page. The total is ${/Total: (\$\d+\.\d\d)/.exec(prompt)?.[1] ?? 'unknown'}.`,
        },
      ],
    },
  ],
};

/** The tasks on the shop. */
export const SHOP_TASKS: readonly EvalTask[] = [fullOrder, refusedOptions, stopAtReview];
