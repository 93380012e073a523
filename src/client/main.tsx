import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app.tsx';
import { changeLocale, initialLocale } from './i18n/i18n.ts';
import { followSystemColorScheme } from './lib/color-scheme.ts';
import './styles.css';

followSystemColorScheme();

const container = document.getElementById('root');
if (!container) throw new Error('The page has no #root element');
const root = createRoot(container);
const render = () =>
  root.render(
    <StrictMode>
      <App />
    </StrictMode>,
  );

// English ships with the page; another language is fetched before the first paint, so no
// English flashes by. If it cannot be fetched, the app shows in English rather than not at all.
const locale = initialLocale();
if (locale === 'en') render();
else changeLocale(locale, { remember: false }).then(render, render);
