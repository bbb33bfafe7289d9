// The demo's entry point (index.html loads it): starts the app, then marks <body data-ready="true">
// so that whatever drives the page (the eval harness, a screenshot script) knows start-up is over.

import { startDemo } from './app.js';

await startDemo();
document.body.dataset.ready = 'true';
