import { ComingSoon } from '../placeholder/ComingSoon';

export default function SellerProfilePage() {
  return <ComingSoon width="content" title="Il mio profilo" />;
}
