import { lazy, Suspense } from 'react';
import { createBrowserRouter, Navigate, Outlet, RouterProvider, useLocation } from 'react-router';
import { SessionProvider, useSession } from './api/session';
import type { ConsoleSettings } from './api/settings';
import { Loading } from './components/Loading';
import { Shell } from './components/Shell';
import { SignInPage } from './pages/SignInPage';

const HomePage = lazy(() => import('./pages/HomePage'));
const ModulePage = lazy(() => import('./pages/ModulePage'));
const ResourcePage = lazy(() => import('./pages/ResourcePage'));
const RecordPage = lazy(() => import('./pages/RecordPage'));
const WritePage = lazy(() => import('./pages/WritePage'));
const ApprovalsPage = lazy(() => import('./pages/ApprovalsPage'));
const AuditLogPage = lazy(() => import('./pages/audit/AuditLogPage'));
const VerifyPage = lazy(() => import('./pages/audit/VerifyPage'));
const ParkedPage = lazy(() => import('./pages/audit/ParkedPage'));
const ErasuresPage = lazy(() => import('./pages/audit/ErasuresPage'));

/** Pages behind the sign-in: a visitor without a credential is sent to it, and comes back after. */
function SignedIn() {
  const { principal } = useSession();
  const location = useLocation();
  if (!principal)
    return <Navigate to="/sign-in" replace state={{ from: location.pathname + location.search }} />;
  return (
    <Shell>
      <Suspense fallback={<Loading />}>
        <Outlet />
      </Suspense>
    </Shell>
  );
}

const router = createBrowserRouter([
  { path: '/sign-in', element: <SignInPage /> },
  {
    element: <SignedIn />,
    children: [
      { index: true, element: <HomePage /> },
      { path: 'approvals', element: <ApprovalsPage /> },
      { path: 'audit', element: <AuditLogPage /> },
      { path: 'audit/verify', element: <VerifyPage /> },
      { path: 'audit/parked', element: <ParkedPage /> },
      { path: 'audit/erasures', element: <ErasuresPage /> },
      { path: 'm/:module', element: <ModulePage /> },
      { path: 'm/:module/:resource', element: <ResourcePage /> },
      { path: 'm/:module/:resource/write', element: <WritePage /> },
      { path: 'm/:module/:resource/:id', element: <RecordPage /> },
    ],
  },
  { path: '*', element: <Navigate to="/" replace /> },
]);

export function App({ settings }: { settings: ConsoleSettings }) {
  return (
    <SessionProvider settings={settings}>
      <RouterProvider router={router} />
    </SessionProvider>
  );
}
