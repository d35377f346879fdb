import { useEffect } from 'react';
import { useLocation } from 'react-router-dom';
import { isEmbeddablePath } from '@vigil/proto';

/** True when another site frames this page (a same-origin parent can be read, a foreign one cannot). */
function framedByAnotherSite(): boolean {
  if (window.top === window.self) return false;
  try {
    return window.top?.location.origin !== window.location.origin;
  } catch {
    return true;
  }
}

/**
 * The server lets other sites frame only the wall and the status page (`FRAME_ANCESTORS`). Moving inside the app
 * from an embedded page to any other one reloads it from the server, whose `frame-ancestors 'self'` then stops it
 * from showing inside the foreign frame.
 */
export function FrameGuard() {
  const { pathname, search } = useLocation();
  useEffect(() => {
    if (!isEmbeddablePath(pathname) && framedByAnotherSite()) window.location.replace(pathname + search);
  }, [pathname, search]);
  return null;
}
