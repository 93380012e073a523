import { useRef, useState, type ReactNode } from 'react';
import { Link, NavLink } from 'react-router';
import { LayoutDashboard, LogIn, LogOut, Settings, UserPlus, Wallet } from 'lucide-react';
import { brandName } from '../../shared/constants.ts';
import { LanguageSelect } from '../i18n/language-select.tsx';
import { useI18n } from '../i18n/use-i18n.ts';

interface NavbarProps {
  /**
   * The signed-in user's e-mail, null when signed out, undefined while the session is not known
   * yet: then neither the visitor's items nor the user's are shown. The visitor's language menu,
   * shown to a signed-in user while their session loaded, took a pick meant for Settings and
   * vanished with it (issue 43).
   */
  email: string | null | undefined;
  /** Whether the signed-in user is the instance's administrator (sees Users). */
  isAdmin: boolean;
  /** Whether the Join link is offered to a signed-out visitor. */
  showJoin: boolean;
  onLogout: () => void;
  /** The menu of the person's books, when they keep more than one; given the menu's closer. */
  bookSwitcher?: ((close: () => void) => ReactNode) | undefined;
}

const linkClass = ({ isActive }: { isActive: boolean }) =>
  `nav-link d-flex align-items-center gap-1${isActive ? ' active' : ''}`;

const iconProps = { size: 16, className: 'icon', 'aria-hidden': true } as const;

export function Navbar({ email, isAdmin, showJoin, onLogout, bookSwitcher }: NavbarProps) {
  const { t } = useI18n();
  const [expanded, setExpanded] = useState(false);
  const toggler = useRef<HTMLButtonElement>(null);
  const close = () => setExpanded(false);

  return (
    <nav
      className="navbar navbar-expand-md navbar-dark app-navbar"
      aria-label={t('layout.nav.label')}
      onKeyDown={(event) => {
        // Esc closes the phone menu and hands focus back to the button that opened it.
        if (event.key !== 'Escape' || !expanded) return; // i18n-ignore: a key's name
        close();
        toggler.current?.focus();
      }}
    >
      <div className="container">
        <Link className="navbar-brand d-flex align-items-center gap-2" to="/" onClick={close}>
          <Wallet size={22} className="icon" aria-hidden />
          {brandName}
        </Link>
        <button
          ref={toggler}
          className="navbar-toggler"
          type="button"
          aria-controls="main-menu"
          aria-expanded={expanded}
          aria-label={t('layout.nav.toggle')}
          onClick={() => setExpanded((value) => !value)}
        >
          <span className="navbar-toggler-icon" />
        </button>
        <div id="main-menu" className={`collapse navbar-collapse${expanded ? ' show' : ''}`}>
          <ul className="navbar-nav me-auto">
            <li className="nav-item">
              <NavLink className={linkClass} to="/" end onClick={close}>
                <LayoutDashboard {...iconProps} />
                {t('layout.nav.dashboard')}
              </NavLink>
            </li>
          </ul>
          <ul className="navbar-nav">
            {email === undefined ? null : email !== null ? (
              <>
                {bookSwitcher?.(close)}
                {/* A flex item, so the e-mail lines up with the links beside it. */}
                {isAdmin && (
                  <li className="nav-item">
                    <NavLink className={linkClass} to="/admin/users" onClick={close}>
                      {t('layout.nav.users')}
                    </NavLink>
                  </li>
                )}
                <li className="nav-item">
                  <NavLink
                    className={(state) => `${linkClass(state)} text-break`}
                    to="/account"
                    title={t('layout.nav.account')}
                    onClick={close}
                  >
                    {email}
                  </NavLink>
                </li>
                <li className="nav-item">
                  <NavLink className={linkClass} to="/setting" onClick={close}>
                    <Settings {...iconProps} />
                    {t('layout.nav.settings')}
                  </NavLink>
                </li>
                <li className="nav-item">
                  <button
                    type="button"
                    className="nav-link btn btn-link d-flex align-items-center gap-1"
                    onClick={() => {
                      close();
                      onLogout();
                    }}
                  >
                    <LogOut {...iconProps} />
                    {t('layout.nav.log-out')}
                  </button>
                </li>
              </>
            ) : (
              <>
                <li className="nav-item">
                  <NavLink className={linkClass} to="/login" onClick={close}>
                    <LogIn {...iconProps} />
                    {t('layout.nav.log-in')}
                  </NavLink>
                </li>
                {showJoin && (
                  <li className="nav-item">
                    <NavLink className={linkClass} to="/join" onClick={close}>
                      <UserPlus {...iconProps} />
                      {t('layout.nav.join')}
                    </NavLink>
                  </li>
                )}
                {/* Signed in, the language is kept with the account and chosen in Settings. */}
                <li className="nav-item d-flex align-items-center py-2 py-md-0 ms-md-2">
                  <LanguageSelect onChosen={close} />
                </li>
              </>
            )}
          </ul>
        </div>
      </div>
    </nav>
  );
}
