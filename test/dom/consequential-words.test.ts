import { describe, expect, it } from 'vitest';
import { announces, consequenceInName } from '../../src/dom/consequential-words.js';

describe('consequenceInName', () => {
  it('reads what a control says it does, in English, German and Japanese', () => {
    const cases: Array<[string, string | undefined]> = [
      ['Delete account now', 'close-account'],
      ['Remove item', 'delete'],
      ['Pay now', 'pay'],
      ['Buy now', 'buy'],
      ['Place order', 'order'],
      ['Send message', 'send'],
      ['Transfer money', 'transfer'],
      ['Subscribe', 'subscribe'],
      ['Cancel subscription', 'unsubscribe'],
      ['Sign out', 'sign-out'],
      ['Upgrade to Pro €99', 'buy'],
      ['Jetzt kaufen', 'buy'],
      ['Konto löschen', 'close-account'],
      ['Zahlungspflichtig bestellen', 'pay'],
      ['Abo kündigen', 'unsubscribe'],
      ['Abmelden', 'sign-out'],
      ['Jetzt überweisen', 'transfer'],
      ['アカウントを削除', 'close-account'],
      ['ログアウト', 'sign-out'],
      ['今すぐ購入', 'buy'],
      ['送信する', 'send'],
      ['Ｄｅｌｅｔｅ', 'delete'],
      // A price alone says it costs money.
      ['Pro plan — $10', 'pay'],
      ['Continue', undefined],
      ['Show more', undefined],
      ['Weiter', undefined],
      ['次へ', undefined],
      // Whole words only: "remover", "payload", "sender" are not the verbs.
      ['Stain remover guide', undefined],
      ['Payload docs', undefined],
      ['Sender details', undefined],
    ];
    for (const [name, kind] of cases) expect(consequenceInName(name), name).toBe(kind);
  });

  it('takes a host’s own words, for any kind', () => {
    expect(consequenceInName('Purge the cache')).toBeUndefined();
    expect(consequenceInName('Purge the cache', { delete: ['purge'] })).toBe('delete');
    expect(consequenceInName('Settle the bill', { pay: ['settle the bill'] })).toBe('pay');
    expect(consequenceInName('Publier', { send: ['publier'] })).toBe('send');
  });
});

describe('announces', () => {
  it('tells whether a todo’s words announce what an action does', () => {
    expect(announces('Open the pricing page', 'send')).toBe(false);
    expect(announces('Update the display name', 'send')).toBe(true);
    expect(announces('Delete the old draft', 'delete')).toBe(true);
    expect(announces('Check the display name', 'delete')).toBe(false);
    expect(announces('Buy the Pro plan', 'pay')).toBe(true);
    expect(announces('Read the docs on docs.example.com', 'leave', 'https://docs.example.com/start')).toBe(true);
    expect(announces('Read the docs', 'leave', 'https://evil.example/')).toBe(false);
    expect(announces('Export the statement', 'download')).toBe(true);
    expect(announces('Den Anzeigenamen ändern', 'send')).toBe(true);
    expect(announces('料金ページを開く', 'send')).toBe(false);
  });
});
