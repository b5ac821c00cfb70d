/** What `hookline init --plugin hookline-preset-deploy --preset deploy` writes. */
export function deployStarter(): string {
  return `# Hookline hooks for deploys. Check with \`hookline validate\`, try with
# \`hookline emit before_deploy --set service=web --set environment=production\`.
plugins = ["hookline-preset-deploy"]
preset = "deploy"

# Production deploys need an approval file in the project.
[[hooks]]
name = "production-needs-approval"
event = "before_deploy"
matcher = "^production$"
# Hookline's command protocol: exit 2 blocks, with the decision JSON on stdout giving the reason.
command = '''test -f .deploy-approved || { echo '{"decision": "block", "reason": "production deploys need .deploy-approved"}'; exit 2; }'''
sandbox = false
`;
}
