import { lazy, Suspense } from 'react';
import { createBrowserRouter } from 'react-router';
import { FullPageLoader } from '#web/components/states';
import LandingPage from '#web/features/landing/components/landing-page';
import { paths } from '#web/lib/paths';
import { GuestOnly, RequireAdmin, RequireAuth, SessionBoundary, SessionSwitch } from './guards';
import { PublicLayout } from './layouts/public-layout';

// The landing page is part of the entry: a visitor's '/' renders as soon as the session answers. Lazy, it
// suspended under a fallback already on screen, and React holds a revealed boundary until 300 ms after
// its fallback appeared, which set the largest contentful paint (docs/decisions/035-landing-page-budget-revised.md).
// Every other page loads on demand so the first screen stays small.
const LoginPage = lazy(() => import('#web/features/auth/components/login-page'));
const DashboardPage = lazy(() => import('./routes/dashboard/dashboard-page'));
const AdminUsersPage = lazy(() => import('#web/features/admin/components/admin-users-page'));
const CampaignsPage = lazy(() => import('./routes/campaigns-page'));
const ChatbotPage = lazy(() => import('#web/features/chatbot/components/chatbot-page'));
const ContactsPage = lazy(() => import('#web/features/contacts/components/contacts-page'));
const ConnectionsPage = lazy(() => import('#web/features/connections/components/connections-page'));
const ConversationsPage = lazy(() => import('#web/features/conversations/components/conversations-page'));
const GroupsPage = lazy(() => import('#web/features/groups/components/groups-page'));
const ReportsPage = lazy(() => import('./routes/reports/reports-page'));
const SettingsPage = lazy(() => import('./routes/settings-page'));
const DemoPage = lazy(() => import('#web/features/demo/components/demo-page'));
const ForgotPasswordPage = lazy(() => import('#web/features/auth/components/forgot-password-page'));
const ResetPasswordPage = lazy(() => import('#web/features/auth/components/reset-password-page'));
const ConfirmEmailPage = lazy(() => import('#web/features/auth/components/confirm-email-page'));
const AcceptInvitationPage = lazy(() => import('#web/features/auth/components/accept-invitation-page'));
const TeamPage = lazy(() => import('#web/features/team/components/team-page'));
const QueuesPage = lazy(() => import('#web/features/queues/components/queues-page'));
// The signed-in shell loads on demand too, so the landing page ships none of it.
const DashboardLayout = lazy(() => import('./layouts/dashboard-layout').then((m) => ({ default: m.DashboardLayout })));
const NotFoundPage = lazy(() => import('./pages/not-found-page'));

function SignedInDashboard() {
  return (
    <RequireAuth>
      <DashboardLayout>
        <DashboardPage />
      </DashboardLayout>
    </RequireAuth>
  );
}

export const router = createBrowserRouter([
  {
    element: (
      <Suspense fallback={<FullPageLoader />}>
        <SessionBoundary />
      </Suspense>
    ),
    children: [
      {
        path: paths.login,
        element: (
          <GuestOnly>
            <LoginPage />
          </GuestOnly>
        ),
      },
      {
        element: <RequireAuth />,
        children: [
          {
            element: <DashboardLayout />,
            children: [
              { path: paths.dashboard, element: <DashboardPage /> },
              { path: paths.connections, element: <ConnectionsPage /> },
              { path: paths.campaigns, element: <CampaignsPage /> },
              { path: paths.chatbot, element: <ChatbotPage /> },
              { path: paths.conversations, element: <ConversationsPage /> },
              // Every team role reads Filas; only managers and the owner see its buttons.
              { path: paths.queues, element: <QueuesPage /> },
              { path: paths.contacts, element: <ContactsPage /> },
              { path: paths.groups, element: <GroupsPage /> },
              { path: paths.reports, element: <ReportsPage /> },
              { path: paths.settings, element: <SettingsPage /> },
              // Números, Chatbot and Equipe are for managers and the owner: the layout sends an agent to
              // the dashboard (the menu entry's `team`, navigation.ts).
              { path: paths.team, element: <TeamPage /> },
              {
                path: paths.adminUsers,
                element: (
                  <RequireAdmin>
                    <AdminUsersPage />
                  </RequireAdmin>
                ),
              },
            ],
          },
        ],
      },
      {
        element: <PublicLayout />,
        children: [
          { path: paths.demo, element: <DemoPage /> },
          // Signed in or not: a link opened from the e-mail works in any browser.
          { path: paths.forgotPassword, element: <ForgotPasswordPage /> },
          { path: paths.resetPassword, element: <ResetPasswordPage /> },
          { path: paths.confirmEmail, element: <ConfirmEmailPage /> },
          { path: paths.invitation, element: <AcceptInvitationPage /> },
        ],
      },
      {
        path: paths.home,
        element: <SessionSwitch signedIn={<SignedInDashboard />} visitor={<LandingPage />} />,
      },
      {
        path: '*',
        element: (
          <SessionSwitch
            signedIn={<SignedInDashboard />}
            visitor={
              <PublicLayout>
                <NotFoundPage />
              </PublicLayout>
            }
          />
        ),
      },
    ],
  },
]);
