import { SsoLanding } from '../features/auth/components/SsoLanding';

export default function SsoLandingPage() {
  return <SsoLanding />;
}
