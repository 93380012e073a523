import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { AxeBuilder } from '@axe-core/playwright';
import type { Page, TestInfo } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { walkScreens, type Say, type Screen } from './screen-list.ts';

/**
 * Every screen of the app, checked the same way at a desktop's width in light and dark mode and
 * at a phone's in light mode (the dark scheme's colours are the desktop's; a phone in dark mode
 * walked them all again for 40 s of every CI run): axe finds no serious or critical accessibility problem
 * (in dark mode, of contrast: the rest is the light check's markup), the page has exactly one h1
 * and its own title, and nothing scrolls sideways. The screens are listed in screen-list.ts;
 * each width walks them all in one test, a step per screen. At the desktop's width each screen is
 * checked in light mode and then, on the same page, in dark mode: the app follows the system's
 * scheme while it is open, and a second walk cost a sign-up, a seeding and every page's load
 * again (about a minute of every CI run). The checks after a screen's heading are soft: a failing
 * one fails the test and the walk still checks the rest.
 *
 * With SCREENSHOTS=<folder> each check also saves a full-page picture there, to look at.
 */

const widths = [
  { label: 'desktop', viewport: { width: 1280, height: 800 }, schemes: ['light', 'dark'] },
  { label: 'phone', viewport: { width: 375, height: 740 }, schemes: ['light'] },
] as const;

type Scheme = 'light' | 'dark';

const english: Say = (text) => text;

for (const { label, viewport, schemes } of widths) {
  test.describe(`every screen, ${label}, ${schemes.join(' and ')}`, () => {
    test.use({ viewport, colorScheme: 'light' });

    test('each screen passes the checks', async ({ page }, testInfo) => {
      await walkScreens(page, testInfo, async (screen, seeded) => {
        await page.emulateMedia({ colorScheme: 'light' });
        const target = typeof screen.path === 'string' ? screen.path : screen.path(seeded);
        await page.goto(target);
        // Patient: the machine running the tests may be busy.
        await expect(page.getByRole('heading', { level: 1, name: screen.heading })).toBeVisible({
          timeout: 20_000,
        });
        await screen.prepare?.(page, english);
        for (const colorScheme of schemes) {
          await page.emulateMedia({ colorScheme });
          await checkScreen(page, testInfo, screen, `${label}-${colorScheme}`, colorScheme);
        }
      });
    });
  });
}

async function checkScreen(
  page: Page,
  testInfo: TestInfo,
  screen: Screen,
  picture: string,
  colorScheme: Scheme,
): Promise<void> {
  await expect(page.locator('html')).toHaveAttribute('data-bs-theme', colorScheme);
  // Colours that ease into the new scheme (Bootstrap's buttons and fields) would be read
  // halfway by axe: wait until no transition runs.
  await page.waitForFunction(() =>
    document.getAnimations().every((animation) => !(animation instanceof CSSTransition)),
  );
  const name = `${screen.name} (${colorScheme})`;

  // Dark mode changes colours only: the light check of the same page has checked the markup.
  if (colorScheme === 'light') await checkMarkup(page, name, screen);

  const dir = process.env.SCREENSHOTS;
  if (dir) {
    mkdirSync(dir, { recursive: true });
    const file = `${screen.name}-${picture}.png`.replace(/[^\w.-]+/g, '-');
    await page.screenshot({ path: path.join(dir, file), fullPage: true });
  }

  // In dark mode axe is asked about contrast only, for the same reason.
  const axe = new AxeBuilder({ page });
  const results = await (
    colorScheme === 'dark' ? axe.withRules(['color-contrast', 'link-in-text-block']) : axe
  ).analyze();
  const serious = results.violations.filter(
    (violation) => violation.impact === 'serious' || violation.impact === 'critical',
  );
  await testInfo.attach(`axe: ${name}`, { body: JSON.stringify(results.violations, null, 2) });
  expect
    .soft(
      serious.map(
        (v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`,
      ),
      `${name}: serious accessibility problems`,
    )
    .toEqual([]);
}

/** One h1, the page's own title, and nothing that scrolls sideways. */
async function checkMarkup(page: Page, name: string, screen: Screen): Promise<void> {
  await expect.soft(page.locator('h1'), name).toHaveCount(1);
  await expect.soft(page, name).toHaveTitle(screen.title ?? /^.+ · Balance$/);
  const overflow = await page.evaluate(() => {
    const { scrollWidth, clientWidth } = document.documentElement;
    // What sticks out, so a failure says where to look.
    // Scrolled inside a box, unless taken out of the flow (a visually hidden label in a
    // wide table escapes a scroll box that is not its containing block).
    const clipped = (element: Element) => {
      if (getComputedStyle(element).position === 'absolute') return false;
      for (let up = element.parentElement; up; up = up.parentElement)
        if (getComputedStyle(up).overflowX !== 'visible') return true;
      return false;
    };
    const outside = [...document.body.querySelectorAll('*')]
      .filter((element) => element.getBoundingClientRect().right > clientWidth + 0.5)
      .filter((element) => !clipped(element))
      .slice(-3)
      .map((element) => `${element.tagName} ${element.getAttribute('class') ?? ''}`);
    return { pixels: scrollWidth - clientWidth, outside };
  });
  expect
    .soft(
      overflow.pixels,
      `${name}: pixels the page scrolls sideways (${overflow.outside.join(', ')})`,
    )
    .toBe(0);
}
