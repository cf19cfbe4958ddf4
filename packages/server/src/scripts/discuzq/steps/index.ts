import type { Step } from '../steps.js';
import { accountSteps } from './accounts.js';
import { contentSteps } from './content.js';
import { countersStep } from './counters.js';
import { moneySteps } from './money.js';
import { partsSteps } from './parts.js';
import { peopleSteps } from './people.js';

/** Every step of an import, in the order they run: what a row points at comes over before the row. */
export const IMPORT_STEPS: readonly Step[] = [
  ...accountSteps,
  ...contentSteps,
  ...partsSteps,
  ...peopleSteps,
  ...moneySteps,
  countersStep,
];
