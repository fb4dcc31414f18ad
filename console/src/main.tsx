import '@mantine/core/styles.css';
import './styles.css';
import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { ApiError } from './api/client';
import { loadSettings } from './api/settings';
import { cssVariables, theme } from './theme';

const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      // A 4xx will answer the same again; a network failure may not.
      retry: (failures, error) => failures < 2 && !(error instanceof ApiError && error.status >= 400),
      refetchOnWindowFocus: false,
    },
  },
});

const root = createRoot(document.getElementById('root') as HTMLElement);

loadSettings().then(
  (settings) =>
    root.render(
      <StrictMode>
        <MantineProvider theme={theme} cssVariablesResolver={cssVariables}>
          <QueryClientProvider client={queryClient}>
            <App settings={settings} />
          </QueryClientProvider>
        </MantineProvider>
      </StrictMode>,
    ),
  (error: unknown) => {
    const message = document.createElement('p');
    message.textContent = error instanceof Error ? error.message : String(error);
    document.body.replaceChildren(message);
  },
);
