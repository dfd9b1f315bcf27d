import type { ComponentType } from 'react';
import { createBrowserRouter, Navigate, type RouteObject } from 'react-router-dom';
import HomePage from '@/features/home/HomePage';
import NotFoundPage from '@/features/not-found/NotFoundPage';
import { LoadingState } from '@/components/ui';
import { RootLayout } from './layouts/RootLayout';
import { RouteError } from './RouteError';
import {
  RequireAdmin,
  RequireInvitationSession,
  RequireTokenSession,
  RequireUserType,
  SELLERS_ONLY,
  SOURCES_ADMIN_ONLY,
} from './guards/guards';

/**
 * A page's module, loaded by the router before it renders the route (route `lazy`), at the
 * same time as the other matched routes' modules. With React.lazy the page suspended after its
 * guard had decided, and React 19 holds a Suspense boundary's content back for 300 ms after its
 * fallback shows: a signed-in page appeared about half a second later than the time its
 * module and data took.
 */
const page = (load: () => Promise<{ default: ComponentType }>) => async () => ({ Component: (await load()).default });
/** The modules two routes share. */
const sellerLayout = page(() => import('@/features/seller/SellerLayout'));
const availabilityPage = page(() => import('@/features/availability/AvailabilityPage'));

/** The route table of spec 001 section 2. */
export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    // the first page's module loading: the same layout, with the loading state in the page's place
    hydrateFallbackElement: (
      <RootLayout>
        <LoadingState className="min-h-dvh" />
      </RootLayout>
    ),
    errorElement: <RouteError />,
    children: [
      { index: true, element: <HomePage /> },
      { path: 'auth', lazy: page(() => import('@/features/auth/AuthPage')) },
      { path: 'seller-register', lazy: page(() => import('@/features/seller/SellerRegisterPage')) },
      { path: 'privacy', lazy: page(() => import('@/features/privacy/PrivacyPage')) },

      // admin back office
      {
        element: <RequireAdmin />,
        children: [
          { path: 'admin', lazy: page(() => import('@/features/requests/RequestsPage')) },
          { path: 'users', lazy: page(() => import('@/features/users/UsersPage')) },
          { path: 'active-options', lazy: page(() => import('@/features/options/ActiveOptionsPage')) },
          { path: 'investigation/:propertyId', lazy: page(() => import('@/features/review/InvestigationPage')) },
          { path: 'identity-reviews', lazy: page(() => import('@/features/review/IdentityReview')) },
          { path: 'omi-import', lazy: page(() => import('@/features/omi/OmiImportPage')) },
          { path: 'omi-data', lazy: page(() => import('@/features/omi/OmiDataPage')) },
          { path: 'activity', lazy: page(() => import('@/features/activity/ActivityPage')) },
        ],
      },
      {
        path: 'sources',
        element: <RequireAdmin deniedDescription={SOURCES_ADMIN_ONLY} />,
        children: [{ index: true, lazy: page(() => import('@/features/sources/SourcesPage')) }],
      },

      // agent area
      {
        path: 'agent-area',
        element: <RequireUserType userType="agente_immobiliare" />,
        children: [
          {
            lazy: page(() => import('@/features/agent/AgentLayout')),
            children: [
              { index: true, element: <Navigate to="/agent-area/profile" replace /> },
              { path: 'profile', lazy: page(() => import('@/features/agent/AgentProfilePage')) },
              { path: 'purchase-options', lazy: page(() => import('@/features/agent/AgentPurchaseOptionsPage')) },
              { path: 'purchase-options/:propertyId', lazy: page(() => import('@/features/agent/AgentDealPage')) },
            ],
          },
        ],
      },

      // seller area (guard first, so the side menu never shows to someone who is not a seller)
      {
        path: 'seller-dashboard',
        element: <RequireUserType userType="venditore" deniedDescription={SELLERS_ONLY} />,
        children: [{ lazy: sellerLayout, children: [{ index: true, lazy: page(() => import('@/features/seller/SellerDashboardPage')) }] }],
      },
      {
        path: 'seller-profile',
        element: <RequireUserType userType="venditore" />,
        children: [{ lazy: sellerLayout, children: [{ index: true, lazy: page(() => import('@/features/seller/SellerProfilePage')) }] }],
      },
      {
        path: 'seller-kyc',
        element: <RequireInvitationSession />,
        children: [{ index: true, lazy: page(() => import('@/features/onboarding/OnboardingPage')) }],
      },
      {
        path: 'availability/:token',
        element: <RequireTokenSession />,
        children: [{ index: true, lazy: availabilityPage }],
      },
      {
        path: 'seller-availability/:propertyId',
        element: <RequireUserType userType="venditore" deniedDescription={SELLERS_ONLY} />,
        children: [{ index: true, lazy: availabilityPage }],
      },

      { path: '*', element: <NotFoundPage /> },
    ],
  },
];

export const router = createBrowserRouter(routes);
