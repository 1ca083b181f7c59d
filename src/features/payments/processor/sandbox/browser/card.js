/*
 * Sandbox Pay's browser script (GET /sandbox-pay/js/card.js): the provider's side of a card form.
 * It stands for a real provider's tokenising script, served from the provider's host.
 *
 *   var card = SandboxPay.mount(container, { publicKey: 'pk_sandbox_...', serverHost: '/sandbox-pay' });
 *   card.tokenize().then(function (answer) { ... });
 *
 * mount() creates labelled inputs WITHOUT `name` attributes (the merchant's form never posts them).
 * tokenize() sends the card to the provider (never to the merchant) and resolves to one of
 *   { token }                    the one-time token the merchant's form posts;
 *   { invalid: [fieldNames] }    fields the provider refused (they are marked aria-invalid);
 *   { challengeUrl, token }      the card needs the 3-D-Secure-style step at challengeUrl first.
 * It rejects when the provider cannot be reached or answers something else.
 */
(function () {
  'use strict';
  var FIELDS = [
    ['firstName', 'First name', 'cc-given-name', 'text', true],
    ['lastName', 'Last name', 'cc-family-name', 'text', true],
    ['number', 'Card number', 'cc-number', 'numeric', true],
    ['cvv', 'CVV', 'cc-csc', 'numeric', false],
    ['month', 'Month', 'cc-exp-month', 'numeric', false],
    ['year', 'Year', 'cc-exp-year', 'numeric', false],
    ['zip', 'Zip code', 'postal-code', 'text', false],
  ];
  var count = 0;

  function mount(container, options) {
    if (!container || !options || !options.publicKey || !options.serverHost) throw new Error('SandboxPay.mount(container, { publicKey, serverHost })');
    var id = 'sp' + ++count;
    var inputs = {};
    var fieldset = document.createElement('fieldset');
    fieldset.className = 'sp-fields';
    var legend = document.createElement('legend');
    legend.textContent = options.legend || 'Card details';
    fieldset.appendChild(legend);
    FIELDS.forEach(function (f) {
      var wrap = document.createElement('div');
      wrap.className = f[4] ? 'sp-field sp-field-wide' : 'sp-field';
      var label = document.createElement('label');
      var input = document.createElement('input');
      input.id = id + '-' + f[0];
      label.htmlFor = input.id;
      label.textContent = f[1];
      input.type = 'text';
      input.setAttribute('autocomplete', f[2]);
      input.setAttribute('inputmode', f[3]);
      input.setAttribute('data-sp-field', f[0]);
      input.setAttribute('aria-required', 'true');
      if (f[0] === 'number') input.maxLength = 23;
      if (f[0] === 'cvv') input.maxLength = 4;
      if (f[0] === 'month') input.maxLength = 2;
      if (f[0] === 'year') input.maxLength = 4;
      inputs[f[0]] = input;
      wrap.appendChild(label);
      wrap.appendChild(input);
      fieldset.appendChild(wrap);
    });
    container.appendChild(fieldset);

    function mark(invalid) {
      var first = null;
      FIELDS.forEach(function (f) {
        var bad = invalid.indexOf(f[0]) >= 0;
        if (bad) inputs[f[0]].setAttribute('aria-invalid', 'true');
        else inputs[f[0]].removeAttribute('aria-invalid');
        if (bad && !first) first = inputs[f[0]];
      });
      if (first) first.focus();
    }

    function tokenize() {
      var body = { publicKey: options.publicKey };
      FIELDS.forEach(function (f) {
        body[f[0]] = inputs[f[0]].value;
      });
      // credentials 'omit': the provider is another host, and the merchant's cookies are none of its business.
      return fetch(options.serverHost + '/v1/tokens', {
        method: 'POST',
        credentials: 'omit',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify(body),
      }).then(function (res) {
        return res.json().then(
          function (json) {
            if (res.status === 422 && json && json.invalid) {
              mark(json.invalid);
              return { invalid: json.invalid };
            }
            if (res.ok && json && json.token) {
              mark([]);
              // The card number and CVV are not kept in the page once they have served.
              inputs.number.value = '';
              inputs.cvv.value = '';
              return json.challengeUrl ? { challengeUrl: json.challengeUrl, token: json.token } : { token: json.token };
            }
            throw new Error('SandboxPay: tokens answered ' + res.status);
          },
          function () {
            throw new Error('SandboxPay: tokens answered ' + res.status + ' without JSON');
          }
        );
      });
    }

    return { tokenize: tokenize };
  }

  window.SandboxPay = { mount: mount, version: 1 };
})();
