import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig({
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // The first load is measured against a budget (docs/CONSOLE.md); sizes are reported compressed.
    reportCompressedSize: true,
  },
});
