import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { AxeBuilder } from '@axe-core/playwright';
import { expect, test } from './fixtures.ts';
import { walkScreens, type Say } from './screen-list.ts';

/**
 * Every screen of the app, checked the same way at a desktop's width in light and dark mode and
 * at a phone's in light mode (the dark scheme's colours are the desktop's; a phone in dark mode
 * walked them all again for 40 s of every CI run): axe finds no serious or critical accessibility problem
 * (in dark mode, of contrast: the rest is the light walk's markup), the page has exactly one h1
 * and its own title, and nothing scrolls sideways. The screens are listed in screen-list.ts;
 * each width and scheme walks them all in one test, a step per screen. The checks after a
 * screen's heading are soft: a failing one fails the test and the walk still checks the rest.
 *
 * With SCREENSHOTS=<folder> each check also saves a full-page picture there, to look at.
 */

const widths = [
  { label: 'desktop', viewport: { width: 1280, height: 800 } },
  { label: 'phone', viewport: { width: 375, height: 740 } },
];
const schemes = ['light', 'dark'] as const;

const english: Say = (text) => text;

for (const { label, viewport } of widths) {
  for (const colorScheme of schemes.filter((scheme) => label === 'desktop' || scheme === 'light')) {
    test.describe(`every screen, ${label}, ${colorScheme}`, () => {
      test.use({ viewport, colorScheme });

      test('each screen passes the checks', async ({ page }, testInfo) => {
        await walkScreens(page, testInfo, async (screen, seeded) => {
          const target = typeof screen.path === 'string' ? screen.path : screen.path(seeded);
          await page.goto(target);
          // Patient: the machine running the tests may be busy.
          await expect(page.getByRole('heading', { level: 1, name: screen.heading })).toBeVisible({
            timeout: 20_000,
          });
          await screen.prepare?.(page, english);
          await expect(page.locator('html')).toHaveAttribute('data-bs-theme', colorScheme);

          await expect.soft(page.locator('h1'), screen.name).toHaveCount(1);
          await expect.soft(page, screen.name).toHaveTitle(screen.title ?? /^.+ · Balance$/);
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
              `${screen.name}: pixels the page scrolls sideways (${overflow.outside.join(', ')})`,
            )
            .toBe(0);

          const dir = process.env.SCREENSHOTS;
          if (dir) {
            mkdirSync(dir, { recursive: true });
            const file = `${screen.name}-${label}-${colorScheme}.png`.replace(/[^\w.-]+/g, '-');
            await page.screenshot({ path: path.join(dir, file), fullPage: true });
          }

          // Dark mode changes colours only: its walk asks axe about contrast, and the light walk
          // at the same width has checked everything else on the same markup.
          const axe = new AxeBuilder({ page });
          const results = await (
            colorScheme === 'dark' ? axe.withRules(['color-contrast', 'link-in-text-block']) : axe
          ).analyze();
          const serious = results.violations.filter(
            (violation) => violation.impact === 'serious' || violation.impact === 'critical',
          );
          await testInfo.attach(`axe: ${screen.name}`, {
            body: JSON.stringify(results.violations, null, 2),
          });
          expect
            .soft(
              serious.map(
                (v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`,
              ),
              `${screen.name}: serious accessibility problems`,
            )
            .toEqual([]);
        });
      });
    });
  }
}
