import { render, screen } from '@testing-library/react';
import { I18nProvider } from '@lingui/react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { i18n } from '../i18n/i18n.ts';
import { Navbar } from './navbar.tsx';

function renderNavbar(email: string | null | undefined) {
  return render(
    <I18nProvider i18n={i18n}>
      <MemoryRouter>
        <Navbar email={email} isAdmin={false} showJoin onLogout={() => {}} />
      </MemoryRouter>
    </I18nProvider>,
  );
}

describe('the navbar', () => {
  it('offers a visitor the languages', () => {
    renderNavbar(null);
    const menu = screen.getByRole('combobox', { name: 'Language' });
    expect(menu).toHaveValue('en');
    expect(screen.getByRole('option', { name: '한국어' })).toBeInTheDocument();
  });

  it('offers no language, nor logging in, while it does not know yet who is there', () => {
    renderNavbar(undefined);
    expect(screen.queryByRole('combobox', { name: 'Language' })).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Log in' })).not.toBeInTheDocument();
  });

  it('leaves the language to Settings once signed in, where the account keeps it', () => {
    renderNavbar('owner@example.com');
    expect(screen.queryByRole('combobox', { name: 'Language' })).not.toBeInTheDocument();
  });
});
