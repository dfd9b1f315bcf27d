import { lazy } from 'react';
import { createBrowserRouter, Navigate, type RouteObject } from 'react-router-dom';
import HomePage from '@/features/home/HomePage';
import NotFoundPage from '@/features/not-found/NotFoundPage';
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

const AuthPage = lazy(() => import('@/features/auth/AuthPage'));
const SellerRegisterPage = lazy(() => import('@/features/seller/SellerRegisterPage'));
const PrivacyPage = lazy(() => import('@/features/privacy/PrivacyPage'));
const SellerLayout = lazy(() => import('@/features/seller/SellerLayout'));
const SellerDashboardPage = lazy(() => import('@/features/seller/SellerDashboardPage'));
const SellerProfilePage = lazy(() => import('@/features/seller/SellerProfilePage'));
const OnboardingPage = lazy(() => import('@/features/onboarding/OnboardingPage'));
const AgentLayout = lazy(() => import('@/features/agent/AgentLayout'));
const AgentProfilePage = lazy(() => import('@/features/agent/AgentProfilePage'));
const AgentPurchaseOptionsPage = lazy(() => import('@/features/agent/AgentPurchaseOptionsPage'));
const AgentDealPage = lazy(() => import('@/features/agent/AgentDealPage'));
const AvailabilityPage = lazy(() => import('@/features/availability/AvailabilityPage'));
const AdminDashboardPage = lazy(() => import('@/features/requests/RequestsPage'));
const UsersPage = lazy(() => import('@/features/users/UsersPage'));
const ActiveOptionsPage = lazy(() => import('@/features/options/ActiveOptionsPage'));
const InvestigationPage = lazy(() => import('@/features/review/InvestigationPage'));
const IdentityReviewsPage = lazy(() => import('@/features/review/IdentityReview'));
const OmiImportPage = lazy(() => import('@/features/omi/OmiImportPage'));
const OmiDataPage = lazy(() => import('@/features/omi/OmiDataPage'));
const SourcesPage = lazy(() => import('@/features/sources/SourcesPage'));
const ActivityPage = lazy(() => import('@/features/activity/ActivityPage'));

/** The route table of spec 001 section 2. */
export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    errorElement: <RouteError />,
    children: [
      { index: true, element: <HomePage /> },
      { path: 'auth', element: <AuthPage /> },
      { path: 'seller-register', element: <SellerRegisterPage /> },
      { path: 'privacy', element: <PrivacyPage /> },

      // admin back office
      {
        element: <RequireAdmin />,
        children: [
          { path: 'admin', element: <AdminDashboardPage /> },
          { path: 'users', element: <UsersPage /> },
          { path: 'active-options', element: <ActiveOptionsPage /> },
          { path: 'investigation/:propertyId', element: <InvestigationPage /> },
          { path: 'identity-reviews', element: <IdentityReviewsPage /> },
          { path: 'omi-import', element: <OmiImportPage /> },
          { path: 'omi-data', element: <OmiDataPage /> },
          { path: 'activity', element: <ActivityPage /> },
        ],
      },
      {
        path: 'sources',
        element: <RequireAdmin deniedDescription={SOURCES_ADMIN_ONLY} />,
        children: [{ index: true, element: <SourcesPage /> }],
      },

      // agent area
      {
        path: 'agent-area',
        element: <RequireUserType userType="agente_immobiliare" />,
        children: [
          {
            element: <AgentLayout />,
            children: [
              { index: true, element: <Navigate to="/agent-area/profile" replace /> },
              { path: 'profile', element: <AgentProfilePage /> },
              { path: 'purchase-options', element: <AgentPurchaseOptionsPage /> },
              { path: 'purchase-options/:propertyId', element: <AgentDealPage /> },
            ],
          },
        ],
      },

      // seller area (guard first, so the side menu never shows to someone who is not a seller)
      {
        path: 'seller-dashboard',
        element: <RequireUserType userType="venditore" deniedDescription={SELLERS_ONLY} />,
        children: [{ element: <SellerLayout />, children: [{ index: true, element: <SellerDashboardPage /> }] }],
      },
      {
        path: 'seller-profile',
        element: <RequireUserType userType="venditore" />,
        children: [{ element: <SellerLayout />, children: [{ index: true, element: <SellerProfilePage /> }] }],
      },
      {
        path: 'seller-kyc',
        element: <RequireInvitationSession />,
        children: [{ index: true, element: <OnboardingPage /> }],
      },
      {
        path: 'availability/:token',
        element: <RequireTokenSession />,
        children: [{ index: true, element: <AvailabilityPage /> }],
      },
      {
        path: 'seller-availability/:propertyId',
        element: <RequireUserType userType="venditore" deniedDescription={SELLERS_ONLY} />,
        children: [{ index: true, element: <AvailabilityPage /> }],
      },

      { path: '*', element: <NotFoundPage /> },
    ],
  },
];

export const router = createBrowserRouter(routes);
