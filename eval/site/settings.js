// Loom's account settings: loads the saved settings (localStorage 'app:settings'), validates on
// save (a taken username is refused with suggestions), and keeps what was saved. The eval's
// checkers read 'app:settings', 'app:settings-rejected' and 'app:account-deleted'.
(() => {
  const DEFAULTS = {
    displayName: 'Ada',
    username: 'ada_1815',
    email: 'ada@analytical.example',
    timezone: 'Europe/London',
    language: 'en',
    notifyProduct: true,
    notifyDigest: true,
    notifyMarketing: true,
    twoFactor: false,
  };
  const TAKEN = { ada: ['ada-lovelace', 'ada1815'], admin: ['admin-ada'], lovelace: ['lovelace-ada'] };
  const read = (key, fallback) => {
    try {
      return JSON.parse(localStorage.getItem(key)) ?? fallback;
    } catch {
      return fallback;
    }
  };
  const saved = { ...DEFAULTS, ...read('app:settings', {}) };
  const form = document.getElementById('settings-form');
  const field = (name) => form.elements.namedItem(name);
  for (const [name, value] of Object.entries(saved)) {
    const input = field(name);
    if (!input) continue;
    if (input.type === 'checkbox') input.checked = Boolean(value);
    else input.value = value;
  }
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const status = document.getElementById('save-status');
    const error = document.getElementById('username-error');
    status.textContent = '';
    error.textContent = '';
    const username = field('username').value.trim();
    const displayName = field('displayName').value.trim();
    if (!displayName) {
      status.textContent = '';
      error.textContent = 'Display name cannot be empty.';
      return;
    }
    if (!/^[a-z0-9_-]{3,20}$/.test(username) && !(username in TAKEN)) {
      error.textContent = 'Usernames are 3 to 20 characters: lowercase letters, digits, - and _.';
      return;
    }
    if (username in TAKEN && username !== saved.username) {
      const rejected = read('app:settings-rejected', []);
      localStorage.setItem('app:settings-rejected', JSON.stringify([...rejected, username]));
      error.textContent = `The username "${username}" is taken. Available: ${TAKEN[username].join(', ')}.`;
      return;
    }
    const next = {
      ...saved,
      displayName,
      username,
      timezone: field('timezone').value,
      language: field('language').value,
      notifyProduct: field('notifyProduct').checked,
      notifyDigest: field('notifyDigest').checked,
      notifyMarketing: field('notifyMarketing').checked,
    };
    Object.assign(saved, next);
    localStorage.setItem('app:settings', JSON.stringify(next));
    status.textContent = 'Settings saved.';
  });
  document.getElementById('delete-account').addEventListener('click', () => {
    localStorage.setItem('app:account-deleted', 'true');
    document.getElementById('delete-status').textContent = 'Your account is scheduled for deletion.';
  });
})();
