// Types for msw-mode.mjs.
import type { Plugin } from 'vite';

export declare function mswMode(): Plugin;
