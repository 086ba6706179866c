// The component tests' one way to put screens on the page: a memory router at `path`, the given routes in a Switch.
import { act, render } from "@testing-library/react";
import type { ComponentType, ReactNode } from "react";
import { Route, Router, Switch } from "wouter";
import { memoryLocation } from "wouter/memory-location";

/**
 * Renders `routes` (a path pattern -> its screen, or what to show there) at `path`; `after` goes inside the router after
 * the routes (the toasts). `at()` is where the screens have navigated to.
 */
export function renderAt(path: string, routes: Record<string, ComponentType | ReactNode>, after?: ReactNode) {
  const location = memoryLocation({ path, record: true });
  const view = render(
    <Router hook={location.hook} searchHook={location.searchHook}>
      <Switch>
        {Object.entries(routes).map(([pattern, screen]) =>
          typeof screen === "function" ? (
            <Route key={pattern} path={pattern} component={screen} />
          ) : (
            <Route key={pattern} path={pattern}>
              {screen}
            </Route>
          ),
        )}
      </Switch>
      {after}
    </Router>,
  );
  return { ...view, location, at: () => location.history?.at(-1) };
}

/** Lets pending promises (mocked API answers) and the renders they cause run, inside act(). */
export async function settle(rounds = 10): Promise<void> {
  await act(async () => {
    for (let i = 0; i < rounds; i++) await Promise.resolve();
  });
}
