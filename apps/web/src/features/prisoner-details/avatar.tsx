// The gender-based picture of the details screen (docs/CLIENT-CONTRACT.md): one for Male, one for any other value.

export function PrisonerAvatar({ gender, className }: { gender: string | null; className?: string }) {
  const male = gender === 'Male';
  return (
    <svg
      viewBox="0 0 96 96"
      role="img"
      aria-label={male ? 'Male prisoner picture' : 'Prisoner picture'}
      className={className}
      data-testid={male ? 'avatar-male' : 'avatar-other'}
    >
      <circle cx="48" cy="48" r="48" fill={male ? '#dbeafe' : '#fce7f3'} />
      {male ? (
        <>
          <circle cx="48" cy="38" r="17" fill="#1e3a5f" />
          <path d="M48 22c-10 0-17 6-17 14 5-5 12-7 17-7s12 2 17 7c0-8-7-14-17-14z" fill="#10223a" />
          <path d="M16 86c4-17 17-26 32-26s28 9 32 26" fill="#1e3a5f" />
        </>
      ) : (
        <>
          <path d="M26 50c0-20 10-32 22-32s22 12 22 32c0 8-3 14-6 17H32c-3-3-6-9-6-17z" fill="#6b2148" />
          <circle cx="48" cy="40" r="15" fill="#9d3a6b" />
          <path d="M16 86c4-17 17-26 32-26s28 9 32 26" fill="#9d3a6b" />
        </>
      )}
    </svg>
  );
}
