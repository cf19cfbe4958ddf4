import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useAppContext } from '../../app-context';
import { logout } from '../../auth/session';

/** Log out, then go home. */
export function useLogout(): { logOut: () => void; pending: boolean } {
  const ctx = useAppContext();
  const navigate = useNavigate();
  const [pending, setPending] = useState(false);
  const logOut = (): void => {
    if (pending) return;
    setPending(true);
    logout(ctx)
      .then(() => navigate('/'))
      .catch((error: unknown) => console.error(error))
      .finally(() => setPending(false));
  };
  return { logOut, pending };
}
