import { createBrowserRouter, type RouteObject } from 'react-router';
import { PaymentForm } from '../features/payments/components/payment-form';
import { TransactionDetails } from '../features/transactions/components/transaction-details';
import { TransactionList } from '../features/transactions/components/transaction-list';
import { Layout } from './layout';
import { NotFound } from './not-found';

export const routes: RouteObject[] = [
  {
    element: <Layout />,
    children: [
      { path: '/', element: <PaymentForm /> },
      { path: '/transactions', element: <TransactionList /> },
      { path: '/transactions/:id', element: <TransactionDetails /> },
      { path: '*', element: <NotFound /> },
    ],
  },
];

export function createRouter() {
  return createBrowserRouter(routes);
}
