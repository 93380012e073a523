import { Outlet } from 'react-router';
import { FlashBar } from '../components/flash.tsx';
import { Navbar } from '../components/navbar.tsx';

export function Layout() {
  return (
    <>
      <Navbar email={null} showJoin onLogout={() => {}} />
      <FlashBar />
      <main className="container py-4">
        <Outlet />
      </main>
    </>
  );
}
