import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { clearBrowserCaches, registerServiceWorker } from './lib/startup';
import './index.css';

async function start(): Promise<void> {
  await clearBrowserCaches();
  registerServiceWorker();
  const root = document.getElementById('root');
  if (!root) throw new Error('The page has no #root element.');
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}

void start();
