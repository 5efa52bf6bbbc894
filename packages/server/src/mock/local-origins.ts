// The stateful mock lets any page served from this machine call it (`http://localhost:<any port>`,
// `http://127.0.0.1:<any port>`, `http://[::1]:<any port>`), so a frontend's dev server works with it
// whatever port it picked; any other origin gets no CORS headers, as from the service. Never `*`: a
// page on the internet must not be able to drive a mock that holds a developer's data.
export const localOrigins: readonly RegExp[] = [/^http:\/\/localhost(:\d{1,5})?$/, /^http:\/\/127\.0\.0\.1(:\d{1,5})?$/, /^http:\/\/\[::1\](:\d{1,5})?$/];
