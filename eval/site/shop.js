// Kettle & Co.'s shop: a cart and a three-step checkout with validation, kept in sessionStorage
// ('app:shop') as a real shop keeps it in the session. The eval's checkers read 'app:shop'.
(() => {
  const PRODUCTS = { mug: { name: 'Blue Mug', price: 14 }, notebook: { name: 'Dot-grid Notebook', price: 9 }, lamp: { name: 'Desk Lamp', price: 39 } };
  const DELIVERY = { standard: 4.9, express: 12.9 };
  const POSTCODES = { DE: /^\d{5}$/, NL: /^\d{4} ?[A-Z]{2}$/i, GB: /^[A-Z]{1,2}\d[A-Z\d]? ?\d[A-Z]{2}$/i, FR: /^\d{5}$/ };
  const COUNTRY_NAMES = { DE: 'Germany', NL: 'the Netherlands', GB: 'the United Kingdom', FR: 'France' };
  const load = () => {
    try {
      return JSON.parse(sessionStorage.getItem('app:shop')) ?? {};
    } catch {
      return {};
    }
  };
  const state = { cart: {}, ...load() };
  const save = () => sessionStorage.setItem('app:shop', JSON.stringify(state));
  const money = (value) => `$${value.toFixed(2)}`;
  const $ = (id) => document.getElementById(id);
  const subtotal = () => Object.entries(state.cart).reduce((sum, [id, qty]) => sum + PRODUCTS[id].price * qty, 0);
  const discount = () => (state.coupon === 'WELCOME5' ? 5 : 0);
  const total = () => subtotal() + (state.shipping ? DELIVERY[state.shipping.delivery] : 0) - discount();
  const count = () => Object.values(state.cart).reduce((a, b) => a + b, 0);
  const text = (tag, content) => Object.assign(document.createElement(tag), { textContent: content });
  $('cart-count').textContent = String(count());

  /** Shows each field's error (or clears it); true when there was none. */
  const showErrors = (errors, names) => {
    for (const name of names) $(`${name}-error`).textContent = errors[name] ?? '';
    return Object.keys(errors).length === 0;
  };

  const page = document.body.dataset.page;
  if (page === 'products') {
    for (const button of document.querySelectorAll('[data-add]')) {
      button.addEventListener('click', () => {
        const id = button.dataset.add;
        const qty = Math.max(1, Math.min(9, Number($(`qty-${id}`).value) || 1));
        state.cart[id] = (state.cart[id] ?? 0) + qty;
        save();
        $('cart-count').textContent = String(count());
        $('add-status').textContent = `Added ${qty} × ${PRODUCTS[id].name}. Your cart has ${count()} items.`;
      });
    }
  }
  if (page === 'cart') {
    const lines = $('cart-lines');
    const render = () => {
      lines.replaceChildren();
      if (count() === 0) lines.append(text('p', 'Your cart is empty.'));
      for (const [id, qty] of Object.entries(state.cart)) {
        const row = document.createElement('p');
        const input = Object.assign(document.createElement('input'), {
          type: 'number',
          min: '0',
          max: '9',
          value: String(qty),
          id: `cart-qty-${id}`,
          name: `cart-qty-${id}`,
        });
        const label = Object.assign(text('label', `${PRODUCTS[id].name} (${money(PRODUCTS[id].price)} each), quantity`), {
          htmlFor: input.id,
          className: 'inline',
        });
        input.addEventListener('change', () => {
          const next = Math.max(0, Math.min(9, Math.round(Number(input.value) || 0)));
          if (next === 0) delete state.cart[id];
          else state.cart[id] = next;
          save();
          $('cart-count').textContent = String(count());
          render();
        });
        row.append(label, ' ', input);
        lines.append(row);
      }
      $('cart-subtotal').textContent = money(subtotal());
    };
    render();
  }
  if (page === 'shipping') {
    const form = $('shipping-form');
    const names = ['fullName', 'street', 'city', 'postcode', 'country', 'delivery'];
    if (state.shipping) for (const name of names) if (form.elements[name]) form.elements[name].value = state.shipping[name];
    const express = $('delivery-express');
    const expressNote = () => {
      // Express cannot reach the islands: postcodes 18565 (Hiddensee) and 25849 (Pellworm) in Germany.
      const blocked = ['18565', '25849'].includes(form.elements.postcode.value.trim());
      express.disabled = blocked;
      $('delivery-error').textContent = blocked ? 'Express delivery is not available for this postcode.' : '';
      if (blocked && express.checked) $('delivery-standard').checked = true;
    };
    form.elements.postcode.addEventListener('input', expressNote);
    expressNote();
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      const value = (name) => String(form.elements[name].value ?? '').trim();
      const errors = {};
      if (count() === 0) errors.fullName = 'Your cart is empty: add something in the shop first.';
      for (const name of ['fullName', 'street', 'city', 'postcode']) if (!value(name) && !errors[name]) errors[name] = 'Required.';
      if (!value('country')) errors.country = 'Choose a country.';
      else if (value('postcode') && !POSTCODES[value('country')].test(value('postcode')))
        errors.postcode = `That is not a valid postcode for ${COUNTRY_NAMES[value('country')]}.`;
      if (!showErrors(errors, names)) return;
      state.shipping = Object.fromEntries(names.map((name) => [name, value(name)]));
      save();
      location.href = '/checkout/payment';
    });
  }
  if (page === 'payment') {
    const form = $('payment-form');
    const names = ['cardName', 'cardNumber', 'expiry', 'cvc'];
    const luhn = (digits) =>
      [...digits].reverse().reduce((sum, d, i) => {
        let n = Number(d) * (i % 2 ? 2 : 1);
        if (n > 9) n -= 9;
        return sum + n;
      }, 0) %
        10 ===
      0;
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      const value = (name) => String(form.elements[name].value ?? '').trim();
      const digits = value('cardNumber').replace(/[\s-]/g, '');
      const errors = {};
      if (!state.shipping) errors.cardName = 'Fill in the shipping step first.';
      if (!value('cardName') && !errors.cardName) errors.cardName = 'Required.';
      if (!/^\d{13,19}$/.test(digits) || !luhn(digits)) errors.cardNumber = 'That card number is not valid.';
      const expiry = /^(\d{2}) ?\/ ?(\d{2})$/.exec(value('expiry'));
      const now = new Date();
      if (!expiry || Number(expiry[1]) < 1 || Number(expiry[1]) > 12) errors.expiry = 'Write the expiry as MM/YY.';
      else if (2000 + Number(expiry[2]) < now.getFullYear() || (2000 + Number(expiry[2]) === now.getFullYear() && Number(expiry[1]) < now.getMonth() + 1))
        errors.expiry = 'This card has expired.';
      if (!/^\d{3}$/.test(value('cvc'))) errors.cvc = 'The security code is 3 digits.';
      if (!showErrors(errors, names)) return;
      state.payment = { cardName: value('cardName'), last4: digits.slice(-4), expiry: value('expiry').replace(/ /g, '') };
      save();
      location.href = '/checkout/review';
    });
  }
  if (page === 'review') {
    const renderTotals = () => {
      const summary = $('review-summary');
      summary.replaceChildren(text('h2', 'Order summary'));
      for (const [id, qty] of Object.entries(state.cart)) summary.append(text('p', `${qty} × ${PRODUCTS[id].name}: ${money(PRODUCTS[id].price * qty)}`));
      if (state.shipping)
        summary.append(
          text(
            'p',
            `Ship to ${state.shipping.fullName}, ${state.shipping.street}, ${state.shipping.postcode} ${state.shipping.city}, ${COUNTRY_NAMES[state.shipping.country]}; ${state.shipping.delivery} delivery (${money(DELIVERY[state.shipping.delivery])}).`,
          ),
        );
      if (state.payment) summary.append(text('p', `Card ending ${state.payment.last4}.`));
      const totals = $('review-total');
      totals.replaceChildren(text('p', `Subtotal: ${money(subtotal())}`));
      if (discount()) totals.append(text('p', `Coupon ${state.coupon}: -${money(discount())}`));
      totals.append(text('p', `Total: ${money(total())}`));
    };
    renderTotals();
    $('coupon-apply').addEventListener('click', () => {
      const code = $('coupon').value.trim().toUpperCase();
      const status = $('coupon-status');
      if (code === 'SPRING10') status.textContent = 'The code SPRING10 expired on 31 March 2026.';
      else if (code === 'WELCOME5') {
        state.coupon = code;
        save();
        status.textContent = 'WELCOME5 applied: $5.00 off.';
      } else status.textContent = `We do not know the code "${code}".`;
      renderTotals();
    });
    $('place-order').addEventListener('click', () => {
      if (count() === 0 || !state.shipping || !state.payment) {
        $('order-error').textContent = 'Complete the shipping and payment steps first.';
        return;
      }
      // The order number depends on what was ordered, so it cannot be guessed without ordering.
      const key = JSON.stringify([state.cart, state.shipping, state.coupon ?? '']);
      let hash = 7;
      for (const char of key) hash = (hash * 31 + char.charCodeAt(0)) % 900000;
      state.order = { number: `KC-${100000 + hash}`, total: Math.round(total() * 100) / 100, cart: { ...state.cart } };
      save();
      location.href = '/checkout/done';
    });
  }
  if (page === 'done') {
    const box = $('confirmation');
    if (!state.order) box.append(text('p', 'No order was placed.'));
    else {
      box.append(text('p', `Your order number is ${state.order.number}.`));
      box.append(text('p', `Total paid: ${money(state.order.total)}. A receipt is on its way.`));
    }
  }
})();
