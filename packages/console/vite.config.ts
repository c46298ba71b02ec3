/** Vite build of the retailer console: React, the PWA service worker, the dev proxy to the API server. */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { VitePWA } from 'vite-plugin-pwa';

// The API server serves /api and the translation dictionaries under /locales (another port: API_PROXY_TARGET).
const API_SERVER = process.env.API_PROXY_TARGET ?? 'http://localhost:8080';
const proxy = { '/api': API_SERVER, '/locales': API_SERVER };

/** The fallback dictionary is precached with the shell, so a first offline start still has words. */
function fallbackDictionaryEntry() {
  const text = readFileSync(new URL('../locales/en.json', import.meta.url));
  return { url: '/locales/en.json', revision: createHash('sha256').update(text).digest('hex').slice(0, 16) };
}

export default defineConfig({
  plugins: [
    react(),
    VitePWA({
      registerType: 'prompt',
      injectRegister: false,
      includeAssets: ['icons/favicon.svg'],
      manifest: {
        name: 'Kisht',
        short_name: 'Kisht',
        description: 'Device financing console for phone retailers',
        lang: 'en',
        start_url: '/',
        scope: '/',
        display: 'standalone',
        orientation: 'portrait',
        theme_color: '#0b5cad',
        background_color: '#f5f7fb',
        icons: [
          { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png' },
          { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png' },
          { src: '/icons/icon-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
          { src: '/icons/icon.svg', sizes: 'any', type: 'image/svg+xml' },
        ],
      },
      workbox: {
        // The app shell: every built asset is precached so the console opens with no network.
        globPatterns: ['**/*.{js,css,html,svg,png,webmanifest}'],
        additionalManifestEntries: [fallbackDictionaryEntry()],
        navigateFallback: '/index.html',
        navigateFallbackDenylist: [/^\/api(\/|$)/, /^\/locales(\/|$)/],
        cleanupOutdatedCaches: true,
        // Take control of the page that installed the worker, so a deploy that lands during a first
        // visit can still be applied by Reload (a page without a controller never sees the switch).
        clientsClaim: true,
        // Other dictionaries: show the cached one at once, refresh it in the background.
        // Nothing under /api is cached: no route matches it, so those requests go to the network.
        runtimeCaching: [
          {
            urlPattern: /\/locales\/[^/]+\.json$/,
            handler: 'StaleWhileRevalidate',
            options: { cacheName: 'kisht-locales', expiration: { maxEntries: 20 } },
          },
        ],
      },
    }),
  ],
  server: { port: 5173, proxy },
  preview: { port: 4173, proxy },
  build: {
    manifest: true,
    // Cheap Android phones run older WebViews; keep the syntax they understand.
    target: ['chrome87', 'safari14', 'firefox78', 'edge88'],
    // Size is policed by scripts/report-bundle.mjs (gzipped first load), not by this raw-size warning.
    chunkSizeWarningLimit: 600,
    rolldownOptions: {
      output: {
        // The libraries every start needs, each in a chunk of its own whose name (content hash) changes only when
        // the library does: a deploy of our code leaves them in the phone's cache and the service worker's precache,
        // so an update downloads the app's few kilobytes, not the half megabyte under it.
        codeSplitting: {
          groups: [
            { name: 'react', test: /[\\/]node_modules[\\/](react|react-dom|scheduler|react-router)[\\/]/, priority: 3 },
            { name: 'redux', test: /[\\/]node_modules[\\/](@reduxjs|redux|redux-thunk|reselect|immer|react-redux|use-sync-external-store|@standard-schema)[\\/]/, priority: 2 },
            { name: 'i18n', test: /[\\/]node_modules[\\/](i18next|i18next-http-backend|i18next-browser-languagedetector|react-i18next)[\\/]/, priority: 1 },
          ],
        },
      },
    },
  },
});
