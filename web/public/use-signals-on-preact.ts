// @preact/signals-react/runtime's useSignals() on the public pages' runtime: under Preact, @preact/signals tracks the
// signals a component reads by itself, so there is nothing to do (scripts/build-public-pages.ts points the import here).
export function useSignals(): void {}
