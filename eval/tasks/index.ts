// Every eval task, in the order the report lists them.
import type { EvalTask } from '../task.js';
import { DEMO_TASKS } from './demo.js';
import { DOCS_TASKS } from './docs.js';
import { SETTINGS_TASKS } from './settings.js';
import { SHOP_TASKS } from './shop.js';

/** All tasks: the demo site's, then the settings page's, the shop's and the docs'. */
export const TASKS: readonly EvalTask[] = [...DEMO_TASKS, ...SETTINGS_TASKS, ...SHOP_TASKS, ...DOCS_TASKS];
