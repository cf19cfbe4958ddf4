import type { NavigateFunction } from 'react-router';

/** Back one step, or home when this tab has no history to go back to (one entry or fewer). */
export function goBackOrHome(navigate: NavigateFunction): void {
  if (typeof window === 'undefined' || window.history.length <= 1) {
    void navigate('/');
  } else {
    void navigate(-1);
  }
}
