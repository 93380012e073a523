import { useState } from 'react';
import { Link, NavLink } from 'react-router';
import { brandName } from '../../shared/constants.ts';

interface NavbarProps {
  /** The signed-in user's e-mail, or null when signed out. */
  email: string | null;
  /** Whether the Join link is offered to a signed-out visitor. */
  showJoin: boolean;
  onLogout: () => void;
}

const linkClass = ({ isActive }: { isActive: boolean }) => `nav-link${isActive ? ' active' : ''}`;

export function Navbar({ email, showJoin, onLogout }: NavbarProps) {
  const [expanded, setExpanded] = useState(false);
  const close = () => setExpanded(false);

  return (
    <nav className="navbar navbar-expand-md navbar-dark bg-dark" aria-label="Main">
      <div className="container">
        <Link className="navbar-brand" to="/" onClick={close}>
          {brandName}
        </Link>
        <button
          className="navbar-toggler"
          type="button"
          aria-controls="main-menu"
          aria-expanded={expanded}
          aria-label="Toggle navigation"
          onClick={() => setExpanded((value) => !value)}
        >
          <span className="navbar-toggler-icon" />
        </button>
        <div id="main-menu" className={`collapse navbar-collapse${expanded ? ' show' : ''}`}>
          <ul className="navbar-nav me-auto">
            <li className="nav-item">
              <NavLink className={linkClass} to="/" end onClick={close}>
                Dashboard
              </NavLink>
            </li>
          </ul>
          <ul className="navbar-nav">
            {email !== null ? (
              <>
                {/* A flex item, so the e-mail lines up with the links beside it. */}
                <li className="nav-item d-flex align-items-center">
                  <span className="navbar-text me-md-3 text-break">{email}</span>
                </li>
                <li className="nav-item">
                  <NavLink className={linkClass} to="/setting" onClick={close}>
                    Setting
                  </NavLink>
                </li>
                <li className="nav-item">
                  <button
                    type="button"
                    className="nav-link btn btn-link"
                    onClick={() => {
                      close();
                      onLogout();
                    }}
                  >
                    Logout
                  </button>
                </li>
              </>
            ) : (
              <>
                <li className="nav-item">
                  <NavLink className={linkClass} to="/login" onClick={close}>
                    Log in
                  </NavLink>
                </li>
                {showJoin && (
                  <li className="nav-item">
                    <NavLink className={linkClass} to="/join" onClick={close}>
                      Join
                    </NavLink>
                  </li>
                )}
              </>
            )}
          </ul>
        </div>
      </div>
    </nav>
  );
}
