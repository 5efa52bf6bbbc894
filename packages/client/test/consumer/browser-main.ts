// The browser entry, bundled with esbuild (--platform=browser): what a page would import.
export { summary } from './summary.js';
