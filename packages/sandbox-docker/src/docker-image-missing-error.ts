import { HooklineError } from '@hookline/core/plugin';

/** The configured image is not in the Docker engine. The sandbox never pulls on its own (see the README). */
export class DockerImageMissingError extends HooklineError {
  readonly image: string;

  constructor(image: string, address: string) {
    super(
      'HOOKLINE_DOCKER_IMAGE_MISSING',
      `image "${image}" is not in the Docker engine at ${address}: pull it (\`docker pull ${image}\`), or build one without a registry ` +
        '(see "Building an image without a registry" in the @hookline/sandbox-docker README; scripts/build-test-image.sh in the Hookline repository builds hookline-test/busybox), ' +
        'then set [sandbox.docker] image to its name',
    );
    this.name = 'DockerImageMissingError';
    this.image = image;
  }
}
