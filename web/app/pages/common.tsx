import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { ApiFailure, describe } from '../api';
import { t } from '../i18n';
import { signedOut } from '../session';

/** A message for the user: an error in words (role alert), or a note. */
export function Notice({ error, note }: { error?: string; note?: string }) {
  if (error)
    return (
      <p class="notice error" role="alert">
        {error}
      </p>
    );
  if (note)
    return (
      <p class="notice" role="status">
        {note}
      </p>
    );
  return null;
}

/** Runs `load` when `deps` change; an expired login sends the user to the login page. */
export function useLoad<T>(
  load: () => Promise<T>,
  deps: unknown[],
): [T | undefined, string | undefined, () => void] {
  const [value, setValue] = useState<T>();
  const [error, setError] = useState<string>();
  const [tick, setTick] = useState(0);
  useEffect(() => {
    let live = true;
    setError(undefined);
    load().then(
      (loaded) => live && setValue(loaded),
      (failure) => {
        if (!live) return;
        if (failure instanceof ApiFailure && failure.statusCode === 401) {
          signedOut();
          location.hash = '#/login';
          return;
        }
        setError(describe(failure));
      },
    );
    return () => {
      live = false;
    };
  }, [...deps, tick]);
  return [value, error, () => setTick((n) => n + 1)];
}

/**
 * An action of the page (a create, a delete, a key): its error in words, cleared when the next one starts;
 * `after` (a reload of what the page shows) runs when it succeeds.
 */
export function useAction(
  after: () => void,
): [(action: () => Promise<unknown>) => Promise<void>, string | undefined] {
  const [error, setError] = useState<string>();
  const run = async (action: () => Promise<unknown>) => {
    setError(undefined);
    try {
      await action();
      after();
    } catch (failure) {
      setError(describe(failure));
    }
  };
  return [run, error];
}

export function Field({ label, children, id }: { label: string; children: ComponentChildren; id: string }) {
  return (
    <div class="field">
      <label for={id}>{label}</label>
      {children}
    </div>
  );
}

export function Loading() {
  return <p aria-busy="true">{t().loading}</p>;
}

/** The fields an API error names, for aria-invalid. */
export function invalidFields(error: unknown): Set<string> {
  if (!(error instanceof ApiFailure)) return new Set();
  return new Set(error.problems.map((problem) => (problem.Property ?? '').split('.').pop() ?? ''));
}
