import LoginScreen from './LoginScreen';

export default function LoginPage() {
  return <LoginScreen />;
}
