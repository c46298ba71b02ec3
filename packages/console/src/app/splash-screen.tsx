/** Shown while the organisation's config and the dictionary load (it mirrors the splash in index.html). */
export function SplashScreen() {
  return (
    <div className="splash" aria-busy="true">
      <img src="/icons/icon.svg" alt="" width={72} height={72} />
      <div className="splash__bar" />
    </div>
  );
}
