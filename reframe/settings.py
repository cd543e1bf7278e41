# ReFrame's configuration for running reframe/halo_bandwidth.py on this
# machine: one system, "local", whose ranks mpirun starts. A centre uses its
# own configuration instead, with its scheduler and launcher (srun), and adds
# its references in halo_bandwidth.py (docs/centres.md).

site_configuration = {
    'systems': [
        {
            'name': 'local',
            'descr': 'this machine: ranks started by mpirun',
            'hostnames': ['.*'],
            'partitions': [
                {
                    'name': 'default',
                    'scheduler': 'local',
                    'launcher': 'mpirun',
                    'environs': ['builtin'],
                    'max_jobs': 1,
                }
            ],
        }
    ],
}
